import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ACTIONS = join(__dirname, '..', 'actions');
/** The kit's promise to action authors: one entry, small enough to read at a glance. */
const MAX_KIT_NAMES = 32;

/** Every non-spec source file of the shipped actions. */
function actionSources(): string[] {
  return readdirSync(ACTIONS, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => join(ACTIONS, file));
}

/** The names src/kit/index.ts exports. */
function kitNames(): string[] {
  const text = readFileSync(join(__dirname, 'index.ts'), 'utf8');
  return [...text.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) =>
    match[1]
      .split(',')
      .map((name) => name.replace(/^\s*type\s+/, '').trim())
      .filter(Boolean),
  );
}

describe('one import root for action authors', () => {
  it('shipped actions reach src/ only through the kit, evm, outbound and outcomes entries (and config)', () => {
    const deep = actionSources().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '((?:\.\.\/){2,}[^']+)'/g)]
        .filter(
          ([, spec]) => !/^(?:\.\.\/)+(?:kit|evm|outbound|outcomes|config\/[\w.-]+)$/.test(spec),
        )
        .map((match) => `${file}: ${match[1]}`),
    );
    expect(actionSources().length).toBeGreaterThan(10);
    expect(deep).toEqual([]);
  });

  it(`exports at most ${MAX_KIT_NAMES} names from src/kit`, () => {
    const names = kitNames();
    expect(names.length).toBeGreaterThan(10);
    expect(names.length).toBeLessThanOrEqual(MAX_KIT_NAMES);
    expect(new Set(names).size).toBe(names.length);
  });
});
