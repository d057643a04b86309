import {
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ACTION_KEY } from './action.decorator';
import type { ActionDeclaration } from '../contract/action.types';
import { ActionException } from '../contract/action.exception';

/**
 * Refuses action calls from origins outside ALLOWED_ORIGINS. Requests with no Origin (servers,
 * a platform proxy) pass unless STRICT_ORIGIN is set; with no list, every origin passes.
 */
@Injectable()
export class OriginGuard implements CanActivate, OnModuleInit {
  private readonly allowed: ReadonlySet<string>;

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    if (!this.reflector.get<ActionDeclaration | undefined>(ACTION_KEY, context.getClass()))
      return true;
    const origin = context.switchToHttp().getRequest<FastifyRequest>().headers.origin;
    const ok =
      origin === undefined
        ? !this.config.strictOrigin
        : this.allowed.size === 0 || this.allowed.has(origin);
    if (!ok) {
      throw new ActionException(HttpStatus.FORBIDDEN, 'Origin not allowed', {
        message: 'This app may not call the action',
        code: 'ORIGIN_NOT_ALLOWED',
      });
    }
    return true;
  }
}
