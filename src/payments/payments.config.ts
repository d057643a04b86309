import { Transform } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateBy,
} from '../config/validator-subset';
import { type Address, getAddress, type Hex, isAddress } from 'viem';
import { registerConfigCheck } from '../config/configuration.check';
import { ConfigError, type Env, httpUrlRule, readEnv, toInt } from '../config/env';

export const PAYMENTS_CONFIG = Symbol('PAYMENTS_CONFIG');

/** EIP-55 mixed case, exactly: a typo in one character is caught by the checksum, not paid to. */
const IsChecksummedAddress = (): PropertyDecorator =>
  ValidateBy({
    name: 'isChecksummedAddress',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && isAddress(value) && getAddress(value) === value,
      defaultMessage: (args) =>
        typeof args?.value === 'string' && isAddress(args.value, { strict: false })
          ? `must be EIP-55 checksummed: ${getAddress(args.value)}`
          : 'must be an EVM address (0x and 40 hex digits, EIP-55 checksummed)',
    },
  });

/** Paid actions over x402 (docs/agents.md, "Pricing an action" and "Running the facilitator"). */
class PaymentsEnv {
  /**
   * Who is paid for a paid action that names no `payTo` of its own (EIP-55 checksummed); unset:
   * such an action (swap-quote) is not served.
   */
  @IsOptional()
  @IsChecksummedAddress()
  X402_PAY_TO?: string;

  /**
   * The x402 facilitator that verifies and settles payments (its `/verify`, `/settle` and
   * `/supported`). Set this or `X402_FACILITATOR_KEY` when a paid action is served.
   */
  @IsOptional()
  @IsUrl(httpUrlRule, { message: 'X402_FACILITATOR_URL must be an http(s) URL' })
  X402_FACILITATOR_URL?: string;

  /**
   * Instead of a facilitator: the private key (0x and 64 hex digits) of the account that settles
   * payments in-process and pays their gas, on each paid action's own chain; never logged.
   */
  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{64}$/, {
    message: 'X402_FACILITATOR_KEY must be a private key: 0x and 64 hex digits',
  })
  X402_FACILITATOR_KEY?: string;

  /** Seconds a payment's authorization is asked to stay valid (`maxTimeoutSeconds`). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3_600)
  X402_MAX_TIMEOUT_SECONDS = 120;

  /**
   * Milliseconds a call to the facilitator, and an in-process settlement's wait for its receipt,
   * may take: past it the call is answered 502 and nothing is delivered.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(300_000)
  X402_SETTLE_TIMEOUT_MS = 30_000;

  /**
   * Seconds the used payment nonces and the answers of payment identifiers are kept (at most:
   * a nonce until its authorization expires), so the same payment is never served twice.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  X402_RECORD_TTL_SECONDS = 86_400;

  /**
   * Payment records kept in process memory (no REDIS_URL); with that many live, new payments
   * are answered 503 rather than any record dropped early.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(10_000_000)
  X402_MEMORY_MAX = 100_000;
}

export interface PaymentsConfig {
  /** The default payee; undefined: paid actions without their own are not served. */
  payTo?: Address;
  facilitator: { url: string } | { key: Hex } | undefined;
  maxTimeoutSeconds: number;
  settleTimeoutMs: number;
  recordTtlMs: number;
  memoryMax: number;
}

export function loadPaymentsConfig(env: Env): PaymentsConfig {
  const vars = readEnv(PaymentsEnv, env, 'payments configuration');
  if (vars.X402_FACILITATOR_URL !== undefined && vars.X402_FACILITATOR_KEY !== undefined) {
    throw new ConfigError([
      'X402_FACILITATOR_URL and X402_FACILITATOR_KEY are both set: set the facilitator URL, or the key of an in-process facilitator, not both',
    ]);
  }
  return {
    payTo: vars.X402_PAY_TO as Address | undefined,
    facilitator:
      vars.X402_FACILITATOR_URL !== undefined
        ? { url: vars.X402_FACILITATOR_URL }
        : vars.X402_FACILITATOR_KEY !== undefined
          ? { key: vars.X402_FACILITATOR_KEY as Hex }
          : undefined,
    maxTimeoutSeconds: vars.X402_MAX_TIMEOUT_SECONDS,
    settleTimeoutMs: vars.X402_SETTLE_TIMEOUT_MS,
    recordTtlMs: vars.X402_RECORD_TTL_SECONDS * 1_000,
    memoryMax: vars.X402_MEMORY_MAX,
  };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadPaymentsConfig);
