import {
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionException } from '../contract/action.exception';
import { guardedRequest } from './guarded-route';
import { InProcessCalls } from './in-process-call';

/** Whether a request with this Origin header may call the actions (KitModule's hook asks too). */
export function originAllowed(
  config: AppConfig,
  origin: string | undefined,
  allowed: ReadonlySet<string> = new Set(config.allowedOrigins),
): boolean {
  return origin === undefined ? !config.strictOrigin : allowed.size === 0 || allowed.has(origin);
}

/**
 * The refusal of an origin that is not allowed: 403 `ORIGIN_NOT_ALLOWED`. The blink routes refuse
 * with it too (src/blinks, BLINKS_ALLOWED_ORIGINS), so both say the same.
 */
export const ORIGIN_REFUSAL = {
  status: HttpStatus.FORBIDDEN,
  error: 'Origin not allowed',
  message: 'This app may not call the action',
  code: 'ORIGIN_NOT_ALLOWED',
} as const;

const originRefusal = (): ActionException =>
  new ActionException(ORIGIN_REFUSAL.status, ORIGIN_REFUSAL.error, {
    message: ORIGIN_REFUSAL.message,
    code: ORIGIN_REFUSAL.code,
  });

/**
 * Refuses action calls (and guarded routes: guarded-route.ts) from origins outside ALLOWED_ORIGINS. Requests with no Origin (servers,
 * a platform proxy) pass unless STRICT_ORIGIN is set; with no list, every origin passes.
 */
@Injectable()
export class OriginGuard implements CanActivate, OnModuleInit {
  private readonly allowed: ReadonlySet<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly inProcess: InProcessCalls,
  ) {
    this.allowed = new Set(config.allowedOrigins);
  }

  onModuleInit(): void {
    if (this.allowed.size === 0 && this.config.nodeEnv === 'production') {
      new Logger('OriginGuard').warn('ALLOWED_ORIGINS is not set: any origin may call the actions');
    }
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.allowed.size === 0 && !this.config.strictOrigin) return true;
    const guarded = guardedRequest(context);
    if (!guarded) return true;
    // The service's own call (a blink running its action) has no Origin to check.
    if (this.inProcess.is(guarded.req)) return true;
    if (!originAllowed(this.config, guarded.req.headers.origin, this.allowed)) {
      throw originRefusal();
    }
    return true;
  }
}
