import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createTestApp } from '../support/app.factory';
import { CHAIN_APP, oneDynamicIn, VAULT } from '../fixtures/chain-actions.fixture';
import { chainActionRows } from '../../scripts/check/chain-actions';

const ROOT = join(__dirname, '..', '..');

/**
 * `npm run check -- <url>` as a child process: its standard output. The app runs inside this
 * Jest worker, whose module registry makes the first /mcp request's SDK load many times slower
 * than production's: the rows get room; test/smoke.js holds the production build to the 2 s.
 */
async function check(url: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      join('scripts', 'check.ts'),
      url,
      '--max-ms',
      '30000',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await once(child, 'close');
  return stdout;
}

describe('npm run check lists the chain actions of each mini-app', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp({ actions: [oneDynamicIn(CHAIN_APP)], miniApps: [CHAIN_APP] });
    await app.listen(0, '127.0.0.1');
  });
  afterAll(() => app?.close());

  it('one passing row per blockchain or transfer action, saying what it sends', async () => {
    const output = await check(await app.getUrl());
    const lines = output.split('\n').filter((line) => line.startsWith('chain action'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(
        `/api/mini-apps/vault actions\\[1\\] +PASS +blockchain "Approve the vault": approve on ${VAULT}, chain 43113`,
      ),
    );
    expect(lines[1]).toContain(`blockchain "Deposit 0.5": deposit on ${VAULT} with 0.5 coins`);
    expect(lines[2]).toContain(
      'transfer "Pay a friend": an amount the user enters to a recipient the user chooses, chain 43113',
    );
    // Nothing fails: no URL row asks the chain actions for a path they do not have.
    expect(output).not.toMatch(/ FAIL /);
    expect(output).toMatch(/ 0 failed/);
  }, 60_000);

  it('fails a chain action the platform would refuse, naming the rule', () => {
    const [row] = chainActionRows('/api/mini-apps/x', [
      {
        type: 'transfer',
        label: 'Pay',
        chains: { source: 43113 },
        to: VAULT.toLowerCase(),
        amount: 1,
      },
    ]);
    expect(row).toMatchObject({ what: 'chain action', result: 'FAIL' });
    expect(row.detail).toContain(`actions[0].to: ${VAULT.toLowerCase()} is not EIP-55 checksummed`);
  });
});
