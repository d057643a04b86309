import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import type { ParamsClass } from '../../src/contract/action.types';
import { ACTION_PARAMS_KEY } from '../../src/kit/action-param.decorator';
import { isCompiled } from '../../src/kit/params/compiled-validation';
import { instancesOf, verdictDifference } from '../../src/testing/validation-differential';

/**
 * The differential check of src/kit/params/compiled-validation.ts on the params classes that
 * exist: every shipped action's and every test fixture's, each validated by the compiled plan
 * and by class-validator's validateSync on random inputs (see validation-differential.ts).
 */
const ROOT = resolve(__dirname, '..', '..');
const ACTIONS = join(ROOT, 'src', 'actions');
const FIXTURES = join(ROOT, 'test', 'fixtures');

const modules = [
  ...readdirSync(ACTIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      readdirSync(join(ACTIONS, dir.name))
        .filter((file) => file.endsWith('.action.ts'))
        .map((file) => join(ACTIONS, dir.name, file)),
    ),
  ...readdirSync(FIXTURES)
    .filter((file) => file.endsWith('.fixture.ts'))
    .map((file) => join(FIXTURES, file)),
];

describe('compiled validation on the shipped and fixture params classes', () => {
  const found = new Map<ParamsClass, string>();

  beforeAll(async () => {
    // @ActionParam records each parameter on its class: listening finds classes no module exports.
    const define = jest.spyOn(Reflect, 'defineMetadata');
    for (const path of modules) {
      define.mockClear();
      await import(path);
      for (const [key, , target] of define.mock.calls)
        if (key === ACTION_PARAMS_KEY && typeof target === 'function')
          found.set(target as ParamsClass, `${path.slice(ROOT.length + 1)}: ${target.name}`);
    }
    define.mockRestore();
  });

  it('finds the params classes of the actions and fixtures', () => {
    const names = [...found.values()];
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/CalculatorParams$/)]));
    expect(names.filter((name) => name.startsWith('test/fixtures')).length).toBeGreaterThan(10);
  });

  it('compiles every one of them (none needs validateSync)', () => {
    const notCompiled = [...found].filter(([cls]) => !isCompiled(cls)).map(([, name]) => name);
    expect(notCompiled).toEqual([]);
  });

  it('accepts, refuses and words every input as validateSync does', () => {
    for (const [paramsClass, name] of found) {
      fc.assert(
        fc.property(instancesOf(paramsClass), (instance) => {
          const difference = verdictDifference(instance);
          if (difference) throw new Error(`${name}\n${difference}`);
        }),
        { numRuns: 300 },
      );
    }
  });
});
