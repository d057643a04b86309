import { IsIn, IsOptional, ValidateIf } from '../config/validator-subset';
import { IsOriginList, list } from '../config/app-env.rules';
import type { AppConfig } from '../config/app.config';
import { registerConfigCheck } from '../config/configuration.check';
import { type Env, readEnv } from '../config/env';

/** Injection token of the blinks' settings (BlinksModule provides it; the module exists only when on). */
export const BLINKS_CONFIG = Symbol('BLINKS_CONFIG');

/** The value of BLINKS_ALLOWED_ORIGINS that lets every origin in, as the Actions spec asks. */
const ANY_ORIGIN = '*';

class BlinksEnv {
  /** `off`: no `/api/blinks/**` route is registered (404; OpenAPI lists none) and `/actions.json` answers `{"rules": []}`; the platform's routes are unchanged. */
  @IsOptional()
  @IsIn(['on', 'off'])
  BLINKS = 'on';

  /** `*` (the Actions spec's rule), or comma-separated origins the blink routes answer (`https://dial.to`); others get 403 `ORIGIN_NOT_ALLOWED`. Independent of ALLOWED_ORIGINS. */
  @IsOptional()
  @ValidateIf((_, value) => value !== ANY_ORIGIN)
  @IsOriginList()
  BLINKS_ALLOWED_ORIGINS = ANY_ORIGIN;
}

export interface BlinksConfig {
  enabled: boolean;
  /** The origins the blink routes answer; empty: any origin (BLINKS_ALLOWED_ORIGINS=*). */
  allowedOrigins: string[];
}

export function loadBlinksConfig(env: Env): BlinksConfig {
  const vars = readEnv(BlinksEnv, env, 'blinks configuration');
  return {
    enabled: vars.BLINKS === 'on',
    allowedOrigins:
      vars.BLINKS_ALLOWED_ORIGINS === ANY_ORIGIN ? [] : list(vars.BLINKS_ALLOWED_ORIGINS),
  };
}

/**
 * What an operator who has narrowed the service's origins must read at boot: the blink routes
 * keep their own rule, so with BLINKS_ALLOWED_ORIGINS at `*` a page of any origin may still run
 * every action through its blink (transaction and data actions alike). Undefined when the
 * service's origins are not narrowed, or the blinks are narrowed too.
 */
export function blinkOriginsNotice(app: AppConfig, blinks: BlinksConfig): string | undefined {
  if (blinks.allowedOrigins.length > 0) return undefined;
  if (app.allowedOrigins.length === 0 && !app.strictOrigin) return undefined;
  const service = [
    ...(app.allowedOrigins.length > 0 ? ['ALLOWED_ORIGINS'] : []),
    ...(app.strictOrigin ? ['STRICT_ORIGIN'] : []),
  ].join(' and ');
  return (
    `${service} narrow the actions' own routes, not the blinks: BLINKS_ALLOWED_ORIGINS=* lets any ` +
    'origin (or none) run every action, data actions included, through /api/blinks/<name> ' +
    '(set BLINKS_ALLOWED_ORIGINS, or BLINKS=off)'
  );
}

/**
 * Where a blink's icon URL may start: PUBLIC_BASE_URL; outside production, the request's own
 * host too. In production a Host header is any client's to write, and Dialect's clients show the
 * icon to other people, so without PUBLIC_BASE_URL an icon that would be built on it is left out.
 */
export function blinkIconBase(app: AppConfig, requestBase: () => string): string | undefined {
  if (app.publicBaseUrl !== undefined) return app.publicBaseUrl;
  return app.nodeEnv === 'production' ? undefined : requestBase();
}

/** blinkIconBase for a request: its protocol and host, outside production only. */
export const requestIconBase = (
  app: AppConfig,
  req: { protocol: string; host: string },
): string | undefined => blinkIconBase(app, () => `${req.protocol.toLowerCase()}://${req.host}`);

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadBlinksConfig);
