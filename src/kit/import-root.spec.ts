import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ACTIONS = join(__dirname, '..', 'actions');

/** Every non-spec source file of the shipped actions. */
function actionSources(): string[] {
  return readdirSync(ACTIONS, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => join(ACTIONS, file));
}

describe('one import root for action authors', () => {
  it('shipped actions import the kit only from src/core, never its inner files or src/chains', () => {
    const deep = actionSources().flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(/from '((?:\.\.\/)+(?:core\/[^']+|chains[^']*))'/g),
      ].map((match) => `${file}: ${match[1]}`),
    );
    expect(actionSources().length).toBeGreaterThan(10);
    expect(deep).toEqual([]);
  });
});
