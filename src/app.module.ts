import { DynamicModule, Module, type Type } from '@nestjs/common';
import { ACTION_MODULES } from './actions';
import type { AppConfig } from './config/app.config';
import type { Env } from './config/env';
import { CoreModule } from './core/core.module';

export interface AppModuleOptions {
  config: AppConfig;
  /** The environment feature modules read their own configuration from. */
  env: Env;
  /** The action modules to serve; tests pass their own. */
  actions?: readonly Type[];
}

@Module({})
export class AppModule {
  static forRoot({ config, env, actions = ACTION_MODULES }: AppModuleOptions): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(config, env), ...actions] };
  }
}
