import { DynamicModule, Module, type Type } from '@nestjs/common';
import { ACTION_MODULES } from './actions';
import type { AppConfig } from './config/app.config';
import { CoreModule } from './core/core.module';

export interface AppModuleOptions {
  config: AppConfig;
  /** The action modules to serve; tests pass their own. */
  actions?: readonly Type[];
}

@Module({})
export class AppModule {
  static forRoot({ config, actions = ACTION_MODULES }: AppModuleOptions): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(config), ...actions] };
  }
}
