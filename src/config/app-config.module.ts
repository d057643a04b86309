import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app.config';
import { ENV, type Env } from './env';

/**
 * The boot-validated application configuration and the environment every feature module reads
 * its own configuration from. Global: the first module of the composition (CoreModule).
 */
@Global()
@Module({})
export class AppConfigModule {
  /**
   * Provides the configuration main.ts (or createTestApp) loaded and validated before Nest starts,
   * so no module reads process.env on its own.
   */
  static forRoot(config: AppConfig, env: Env): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: ENV, useValue: env },
      ],
      exports: [APP_CONFIG, ENV],
    };
  }
}
