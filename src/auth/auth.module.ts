import { Global, Logger, Module } from '@nestjs/common';
import type { RedisClient } from '../telemetry/redis/redis.provider';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ENV, type Env } from '../config/env';
import { ActionRegistry } from '../kit/action.registry';
import { SessionVerifier } from '../kit/verified-user';
import { REDIS, RedisStatus } from '../telemetry/redis/redis.provider';
import { AuthController } from './auth.controller';
import { AUTH_CONFIG, type AuthConfig, loadAuthConfig, missingSecretWarning } from './auth.config';
import { AUTH_STORE, type AuthStore, MemoryAuthStore, RedisAuthStore } from './auth.store';
import { AuthSessionVerifier } from './auth-session.verifier';
import { SessionTokens } from './session-tokens';
import { SiweVerifier } from './siwe.verifier';

/**
 * Verified users (docs/verified-users.md): Sign-In with Ethereum and its session tokens, the
 * kit's session step (SessionVerifier), nonces and the deny-list where the intents live (Redis
 * when REDIS_URL is set, else memory). Registered by CoreModule after the kit; global so the
 * kit's guard finds its SessionVerifier, as the envelope finds the outcomes' listener.
 */
@Global()
@Module({
  controllers: [AuthController],
  providers: [
    {
      provide: AUTH_CONFIG,
      inject: [ENV, APP_CONFIG, ActionRegistry],
      useFactory: (env: Env, app: AppConfig, registry: ActionRegistry): AuthConfig => {
        const config = loadAuthConfig(env);
        const needed = registry.declarations().some((action) => action.user === 'verified');
        const warning = missingSecretWarning(config, app, needed);
        if (warning) new Logger('AuthModule').warn(warning);
        return config;
      },
    },
    {
      provide: AUTH_STORE,
      inject: [AUTH_CONFIG, REDIS, RedisStatus],
      useFactory: (
        config: AuthConfig,
        redis: RedisClient | null,
        status: RedisStatus,
      ): AuthStore =>
        redis ? new RedisAuthStore(redis, status) : new MemoryAuthStore(config.memoryMax),
    },
    SessionTokens,
    SiweVerifier,
    AuthSessionVerifier,
    { provide: SessionVerifier, useExisting: AuthSessionVerifier },
  ],
  // SiweVerifier for the blinks' sign-in message (src/blinks), which it must accept.
  exports: [AUTH_CONFIG, AUTH_STORE, SessionTokens, SiweVerifier, SessionVerifier],
})
export class AuthModule {}
