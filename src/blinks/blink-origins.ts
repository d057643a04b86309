import type { ActionError } from '@solana/actions-spec';
import type { AppConfig } from '../config/app.config';
import { ORIGIN_REFUSAL, originAllowed } from '../kit/origin.guard';
import type { BlinksConfig } from './blinks.config';

/** The refusal of an origin, in the spec's shape with the origin guard's code beside its words. */
export interface BlinkOriginRefusal extends ActionError {
  code: string;
}

/** Which origins the blink routes answer (BLINKS_ALLOWED_ORIGINS), read once at boot. */
export interface BlinkOrigins {
  /** What the routes' CORS allows: `*`, or the listed origins, reflected one at a time. */
  cors: '*' | string[];
  /** Undefined when the request's Origin may use the blink routes; else the 403 to answer. */
  refusal(origin: string | undefined): { status: number; body: BlinkOriginRefusal } | undefined;
}

/**
 * BLINKS_ALLOWED_ORIGINS as the blink routes apply it. `*` (the default) is the Actions spec's
 * rule: any origin, or none. A list is judged as the origin guard judges ALLOWED_ORIGINS
 * (originAllowed: a request with no Origin passes unless STRICT_ORIGIN) and refused with its
 * status, code and words, so a client reads one refusal whichever door it knocked on.
 */
export function blinkOrigins(app: AppConfig, blinks: BlinksConfig): BlinkOrigins {
  const listed = new Set(blinks.allowedOrigins);
  if (listed.size === 0) return { cors: '*', refusal: () => undefined };
  const { status, message, code } = ORIGIN_REFUSAL;
  const body: BlinkOriginRefusal = { message, code };
  return {
    cors: [...listed],
    refusal: (origin) => (originAllowed(app, origin, listed) ? undefined : { status, body }),
  };
}
