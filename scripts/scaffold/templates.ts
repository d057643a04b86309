import type { ActionNames } from './names';
import { chainTemplates } from './chain-templates';
import { dataTemplates } from './data-templates';
import { spendTemplates } from './spend-templates';
import { transactionTemplates } from './transaction-templates';
import { transferTemplates } from './transfer-templates';
import { verifiedChainTemplates } from './verified-chain-templates';

export type ActionMode = 'data' | 'transaction';
/**
 * The example a mode starts from: data mode's plain one or `chain` (reads the chain, cached);
 * transaction mode's native transfer, `spend` (an ERC-20 paid into a contract, approval first) or
 * `transfer` (an ERC-20 sent from the user, no contract between: no approval).
 */
export type ActionVariant = 'plain' | 'chain' | 'spend' | 'transfer';

const TEMPLATES: Record<
  ActionVariant,
  Record<ActionMode, ((input: TemplateInput) => ModeTemplates) | undefined>
> = {
  plain: { data: dataTemplates, transaction: transactionTemplates },
  chain: { data: chainTemplates, transaction: undefined },
  spend: { data: undefined, transaction: spendTemplates },
  transfer: { data: undefined, transaction: transferTemplates },
};

/**
 * The templates of a mode and variant; undefined when the variant is not one of the mode's.
 * `verified` picks the chain reader of the signed-in user's own balance (no parameter).
 */
export function templatesFor(
  mode: ActionMode,
  variant: ActionVariant,
  verified = false,
): ((input: TemplateInput) => ModeTemplates) | undefined {
  if (verified && variant === 'chain' && mode === 'data') return verifiedChainTemplates;
  return TEMPLATES[variant][mode];
}

/** Where the action's declaration finds its mini-app: the constant of src/actions/mini-apps.ts. */
export interface TemplateInput {
  names: ActionNames;
  miniAppConstant: string;
  /** The action declares `user: 'verified'` (--verified). */
  verified?: boolean;
}

/** What differs between the modes; the controller, module and e2e frame are shared. */
export interface ModeTemplates {
  action: string;
  service: string;
  serviceSpec: string;
  /** The handler's return type and the names the controller imports for it. */
  returns: { type: string; kitImport: string; serviceImport?: string };
  /** False for an action without parameters: its handler takes the context alone. */
  params?: false;
  /** Modules the action's module imports, and from where. */
  moduleImports?: { names: string; from: string };
  /** Imports and `it` blocks of the e2e spec beside the conformance kit. */
  e2eImports: string;
  e2eTests: string;
  /** The e2e spec's app, and what else it starts and stops: an app of the action by default. */
  e2eSetup?: { declare: string; start: string; stop: string };
}

const APP_SETUP = {
  declare: '',
  start: `  beforeAll(async () => {
    app = await createTestApp();
  });
`,
  stop: `  afterAll(() => app.close());
`,
};

/** Every file of one action, by its path from the project root. */
export function actionFiles(
  mode: ActionMode,
  input: TemplateInput,
  variant: ActionVariant = 'plain',
): Record<string, string> {
  const { kebab } = input.names;
  const templates = templatesFor(mode, variant, input.verified);
  if (!templates) throw new Error(`no ${variant} variant in ${mode} mode`);
  const modeFiles = templates(input);
  const dir = `src/actions/${kebab}`;
  return {
    [`${dir}/${kebab}.action.ts`]: modeFiles.action,
    [`${dir}/${kebab}.service.ts`]: modeFiles.service,
    [`${dir}/${kebab}.controller.ts`]: controller(input.names, modeFiles),
    [`${dir}/${kebab}.module.ts`]: actionModule(input.names, modeFiles),
    [`${dir}/${kebab}.service.spec.ts`]: modeFiles.serviceSpec,
    [`test/actions/${kebab}.e2e-spec.ts`]: e2eSpec(input.names, modeFiles),
  };
}

function controller({ kebab, pascal, camel }: ActionNames, mode: ModeTemplates): string {
  const { returns } = mode;
  if (mode.params === false) return parameterlessController({ kebab, pascal, camel }, returns);
  return `import {
  ActionContext,
  ActionController,
  ActionParams,
  ${returns.kitImport},
  type ContextOf,
  RunAction,
} from '../../kit';
import { ${camel}Action, ${pascal}Params } from './${kebab}.action';
import { ${returns.serviceImport ?? ''}${pascal}Service } from './${kebab}.service';

@ActionController(${camel}Action)
export class ${pascal}Controller {
  constructor(private readonly service: ${pascal}Service) {}

  @RunAction()
  run(
    @ActionParams() params: ${pascal}Params,
    @ActionContext() context: ContextOf<typeof ${camel}Action>,
  ): ${returns.type} {
    return this.service.run(params, context);
  }
}
`;
}

/** The handler of an action without parameters: the context alone. */
function parameterlessController(
  { kebab, pascal, camel }: Pick<ActionNames, 'kebab' | 'pascal' | 'camel'>,
  returns: ModeTemplates['returns'],
): string {
  return `import {
  ActionContext,
  ActionController,
  ${returns.kitImport},
  type ContextOf,
  RunAction,
} from '../../kit';
import { ${camel}Action } from './${kebab}.action';
import { ${returns.serviceImport ?? ''}${pascal}Service } from './${kebab}.service';

@ActionController(${camel}Action)
export class ${pascal}Controller {
  constructor(private readonly service: ${pascal}Service) {}

  @RunAction()
  run(@ActionContext() context: ContextOf<typeof ${camel}Action>): ${returns.type} {
    return this.service.run(context);
  }
}
`;
}

function actionModule({ kebab, pascal }: ActionNames, mode: ModeTemplates): string {
  const imports = mode.moduleImports;
  return `import { Module } from '@nestjs/common';
${imports ? `import { ${imports.names} } from '${imports.from}';\n` : ''}import { ${pascal}Controller } from './${kebab}.controller';
import { ${pascal}Service } from './${kebab}.service';

@Module({
  ${imports ? `imports: [${imports.names}],\n  ` : ''}controllers: [${pascal}Controller],
  providers: [${pascal}Service],
})
export class ${pascal}Module {}
`;
}

function e2eSpec({ kebab, title }: ActionNames, mode: ModeTemplates): string {
  const setup = mode.e2eSetup ?? APP_SETUP;
  return `import type { NestFastifyApplication } from '@nestjs/platform-fastify';
${mode.e2eImports}import { describeActionConformance } from '../../src/testing';
import { createTestApp, postJson } from '../support/app.factory';

const PATH = '/api/${kebab}';

describe('${title} action', () => {
  let app: NestFastifyApplication;
${setup.declare}
${setup.start}${setup.stop}
  // Every contract rule, with the declaration's samples as the valid requests.
  describeActionConformance(() => app, PATH);
${mode.e2eTests}});
`;
}
