import { Transform } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  ValidateIf,
} from '../../config/validator-subset';
import { type Env, httpUrlRule, readEnv, toInt } from '../../config/env';
import { registerConfigCheck } from '../../config/configuration.check';
import { IsWebhookSecret } from '../../config/webhook-secret';

export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');

/** Signed webhooks of settled transaction outcomes (docs/webhooks.md). */
class WebhooksEnv {
  /**
   * Receiver of the signed webhooks, http(s), no credentials in it; unset: no webhooks. Any host,
   * private and loopback included: it is the operator's own.
   */
  @IsOptional()
  @IsUrl({ ...httpUrlRule, disallow_auth: true })
  WEBHOOK_URL?: string;

  /**
   * Key of the signatures (Standard Webhooks: HMAC-SHA256), `whsec_<base64>` as receivers' libraries
   * take it; required with `WEBHOOK_URL`; never logged.
   */
  @ValidateIf((vars: WebhooksEnv) => vars.WEBHOOK_URL !== undefined)
  @IsString({ message: 'WEBHOOK_SECRET is required with WEBHOOK_URL' })
  @IsWebhookSecret()
  WEBHOOK_SECRET?: string;

  /** Attempts per delivery, the first included; a non-2xx answer or a timeout is retried. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  WEBHOOK_MAX_ATTEMPTS = 8;

  /** Bound on one attempt, answer included; past it the attempt counts as failed. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** Delay before the first retry; each next one doubles, less up to half of it at random (jitter). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  WEBHOOK_BACKOFF_MS = 5000;

  /** Without Redis: deliveries kept in memory at most (waiting or in flight); more are dropped and logged. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  WEBHOOK_MEMORY_MAX = 10_000;
}

/** The configuration of deliveries; `url` and `secret` both set, or neither. */
export interface WebhooksConfig {
  url?: string;
  secret?: string;
  maxAttempts: number;
  timeoutMs: number;
  backoffMs: number;
  memoryMax: number;
}

export function loadWebhooksConfig(env: Env): WebhooksConfig {
  const vars = readEnv(WebhooksEnv, env, 'webhook configuration');
  return {
    url: vars.WEBHOOK_URL,
    secret: vars.WEBHOOK_URL ? vars.WEBHOOK_SECRET : undefined,
    maxAttempts: vars.WEBHOOK_MAX_ATTEMPTS,
    timeoutMs: vars.WEBHOOK_TIMEOUT_MS,
    backoffMs: vars.WEBHOOK_BACKOFF_MS,
    memoryMax: vars.WEBHOOK_MEMORY_MAX,
  };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadWebhooksConfig);
