import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  checkActionConformance,
  type ConformanceFinding,
  type ConformanceRule,
  describeActionConformance,
} from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { ConformanceBrokenModule } from '../fixtures/conformance-broken.fixture';
import { ConformanceGoodModule } from '../fixtures/conformance-good.fixture';

/** Each broken fixture: the rules the kit must report it breaking (and no other), and how. */
const BROKEN: [path: string, rules: ConformanceRule[], problem: RegExp][] = [
  // Its tool answers the bad value too (`mcp`: the route's refusal is what the tool must say).
  [
    '/api/broken/unvalidated',
    ['invalid-params', 'mcp', 'missing-params'],
    /amount=101 answered 200/,
  ],
  // Its guard reads the raw body, so the text a blink client sends (`"3"`) is refused too.
  [
    '/api/broken/unnamed-refusal',
    ['blink', 'invalid-params', 'missing-params'],
    /does not name amount/,
  ],
  [
    '/api/broken/own-errors',
    ['invalid-params', 'missing-params', 'user-address', 'chain', 'rate-limit'],
    /without a user address: success is undefined/,
  ],
  [
    '/api/broken/own-errors-tx',
    ['invalid-params', 'missing-params', 'chain', 'rate-limit'],
    /error is not text[\s\S]*code is not text/,
  ],
  ['/api/broken/own-origin', ['cors'], /allows origin https:\/\/only-our-site\.example/],
  // The blink answers the transaction in its client's format: one it cannot read fails there too.
  [
    '/api/broken/unparseable-tx',
    ['blink', 'valid-samples'],
    /serializedTransaction does not parse/,
  ],
  ['/api/broken/other-chain-tx', ['valid-samples'], /serialized transaction is for chain 1\b/],
  ['/api/broken/forgot-data-mode', ['blink', 'mcp', 'valid-samples'], /answered 500/],
  ['/api/broken/loose-tx', ['mcp', 'valid-samples'], /"success"[\s\S]*abi is not an array/],
  // Its data breaks its own dataSchema: the tool refuses to pass it on, nothing else sees it.
  [
    '/api/broken/off-schema',
    ['mcp'],
    /with sample .* was answered .*does not match its declared schema/,
  ],
  [
    '/api/broken/unfunded-tx',
    ['sample-simulation'],
    /^sample 1 .*: sends 1000000000000000000000000000000 wei; the sample user 0xf39F.* holds \d+$/m,
  ],
];

const rulesOf = (findings: ConformanceFinding[]): ConformanceRule[] =>
  [...new Set(findings.map(({ rule }) => rule))].sort();

describe('The conformance kit', () => {
  let app: NestFastifyApplication;
  let chain: LocalChain;

  beforeAll(async () => {
    // The chain the fixtures declare, local: the kit runs their sample transactions on it.
    chain = await startLocalChain({ chainId: 43113 });
    app = await createTestApp({
      actions: [ConformanceGoodModule, ConformanceBrokenModule],
      env: { RPC_URL_43113: chain.rpcUrl },
    });
  });
  afterAll(async () => {
    await app?.close();
    await chain?.stop();
  });

  it.each(['/api/conformance/quote', '/api/conformance/pay', '/api/conformance/frame'])(
    'finds nothing wrong with %s, written by the rules',
    async (path) => {
      expect(await checkActionConformance(app, path)).toEqual([]);
    },
  );

  it.each(BROKEN)('reports what %s breaks, and only that', async (path, rules, problem) => {
    const findings = await checkActionConformance(app, path);
    expect(rulesOf(findings)).toEqual([...rules].sort());
    const text = findings.map(({ problem: p }) => p).join('\n');
    expect(text).toMatch(problem);
  });

  it('reports a sample the action refuses, and an action with no sample', async () => {
    const refused = await checkActionConformance(app, '/api/conformance/quote', {
      valid: [{ params: { amount: 5000, speed: 'fast' } }],
    });
    expect(refused.filter(({ rule }) => rule === 'valid-samples')).toEqual([
      { rule: 'valid-samples', problem: expect.stringMatching(/^sample 1 .* answered 400 /) },
    ]);
    const none = await checkActionConformance(app, '/api/conformance/quote', { valid: [] });
    expect(none.map(({ rule }) => rule)).toEqual(['valid-samples']);
  });

  it('reports a rate limit it cannot observe on the app it is given', async () => {
    const findings = await checkActionConformance(app, '/api/conformance/quote', {
      limitedApp: () => createTestApp({ actions: [ConformanceGoodModule] }),
    });
    expect(findings).toEqual([
      {
        rule: 'rate-limit',
        problem: expect.stringMatching(/^2 requests .*: the last answered 400 /),
      },
    ]);
  });

  describe('as an action spec calls it', () => {
    describeActionConformance(() => app, '/api/conformance/pay');
  });
});
