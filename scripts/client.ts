/**
 * `npm run client [-- --out <file>]`: writes a typed client of the service's actions (default
 * src/client/generated/actions.ts): per action a function whose values and answer are typed from
 * its declaration and handler, calling `executeDynamic`. See docs/client.md.
 */
import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ACTION_MODULES } from '../src/actions';
import type { ActionDeclaration } from '../src/contract/action.types';
import { ACTION_KEY } from '../src/kit/action.decorator';
import { answerTypes } from './client/answer-types';
import { type ClientAction, clientSource, findController } from './client/client-source';

const ROOT = join(__dirname, '..');
export const DEFAULT_OUT = join(ROOT, 'src', 'client', 'generated', 'actions.ts');

/** Each action module's controllers, as `@Module({ controllers })` records them. */
function declaredActions(modules: readonly Type[]): ClientAction[] {
  const actionsDir = join(ROOT, 'src', 'actions');
  return modules.flatMap((module) => {
    const controllers = (Reflect.getMetadata('controllers', module) ?? []) as Type[];
    return controllers.flatMap((controller) => {
      const declaration = Reflect.getMetadata(ACTION_KEY, controller) as
        ActionDeclaration | undefined;
      // A paid action is for x402 clients (docs/agents.md): executeDynamic cannot pay.
      return declaration && !declaration.price
        ? [{ declaration, controller: findController(actionsDir, controller.name) }]
        : [];
    });
  });
}

/** Formatted as `npm run lint` expects, with the project's Prettier settings. */
async function formatted(file: string, text: string): Promise<string> {
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...config, filepath: file });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = resolve(values.out ?? DEFAULT_OUT);
  const actions = declaredActions(ACTION_MODULES);
  mkdirSync(dirname(out), { recursive: true });
  const answers = answerTypes(actions, join(ROOT, 'tsconfig.json'));
  writeFileSync(out, await formatted(out, clientSource(actions, out, answers)));
  console.log(`client: ${actions.length} actions written to ${out}`);
  return 0;
}

void main().then((code) => {
  process.exitCode = code;
});
