import { DynamicModule, Module, type Type } from '@nestjs/common';
import { ACTION_MODULES } from './actions';
import { MINI_APPS } from './actions/mini-apps';
import type { AppConfig } from './config/app.config';
import type { Env } from './config/env';
import { CoreModule } from './server/core.module';
import { servedActionModules } from './payments/served-actions';
import type * as Debug from './debug/debug.module';
import type { MiniAppDeclaration } from './contract/mini-app.types';

export interface AppModuleOptions {
  config: AppConfig;
  /** The environment feature modules read their own configuration from. */
  env: Env;
  /** The action modules to serve; tests pass their own. */
  actions?: readonly Type[];
  /**
   * The registered mini-apps: by default the shipped ones with the shipped actions, and those
   * the given actions name when a test serves its own.
   */
  miniApps?: readonly MiniAppDeclaration[];
}

/** The debugger page, loaded only when DEBUG_UI serves it: its files stay out of every other boot. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const debugModule = (): Type => (require('./debug/debug.module') as typeof Debug).DebugModule;

@Module({})
export class AppModule {
  static forRoot({ config, env, actions, miniApps }: AppModuleOptions): DynamicModule {
    const registered = miniApps ?? (actions ? null : MINI_APPS);
    // A paid action nobody would be paid for is not served (docs/agents.md).
    const served = servedActionModules(actions ?? ACTION_MODULES, env);
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, env, registered, served),
        ...served,
        ...(config.debugUi ? [debugModule()] : []),
      ],
    };
  }
}
