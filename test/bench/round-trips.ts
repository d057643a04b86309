/**
 * Round trips per transaction answer at a remote node's latency: `npm run bench` prints it after
 * the table, or alone with `npx ts-node --transpile-only test/bench/round-trips.ts`. The local
 * chain (startTestChain, Hardhat in this process) sits behind a JSON-RPC proxy that holds each
 * request and each answer 100 ms each way (a round trip, RTT, of 200 ms at the node) and counts
 * batches and calls. Each action answers one request at a time, the same wallet each time; the
 * first answers (approvals) are not counted. The rows marked "a block before each" mine a block
 * (another wallet's transfer, straight to the chain) before every answer, as a live chain does.
 * The approval row asks as a wallet that never approved the routers and signs nothing: every
 * answer counted is the approval a fresh wallet gets first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { png } from '../../src/testing/sample-files';
import { signAndSend, startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { formBody } from '../support/multipart.helper';
import { RpcRecorder } from '../support/rpc.recorder';
import { printAlone } from './bench.report';

/** Each way: the proxy holds the request 100 ms and the answer 100 ms. */
const ONE_WAY_MS = Number(process.env.BENCH_ONE_WAY_MS ?? 100);
const ANSWERS = 20;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}
type Ask = (app: NestFastifyApplication, testChain: TestChain) => Promise<Answer>;

/** A block mined by another wallet's transfer, past the proxy (it is not the service's call). */
async function mine(testChain: TestChain): Promise<void> {
  const other = testChain.chain.wallet(testChain.users[1]);
  const hash = await other.sendTransaction({ to: testChain.users[2].address, value: 1n });
  await testChain.chain.publicClient.waitForTransactionReceipt({ hash });
}

/** `user`: which of the test chain's funded users asks (0 unless the row says otherwise). */
const post =
  (path: string, params: Record<string, string>, user = 0): Ask =>
  async (app, testChain) => {
    const response = await app.inject({
      method: 'POST',
      url: `${path}?${new URLSearchParams(params).toString()}`,
      headers: { 'x-wallet-address': testChain.users[user].address },
    });
    return { status: response.statusCode, body: response.json() };
  };

const mint: Ask = async (app, testChain) => {
  const { body, contentType } = await formBody([
    ['image', { bytes: png(32, 32), filename: 'a.png', type: 'image/png' }],
    ['name', 'Bench'],
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/mint-nft',
    payload: body,
    headers: { 'content-type': contentType, 'x-wallet-address': testChain.users[0].address },
  });
  return { status: response.statusCode, body: response.json() };
};

/** `mine`: a block before each answer; `approval`: every answer is an approval (none signed). */
type RowOptions = { mine?: boolean; approval?: boolean };
/** The funded user that never approves anything: the approval row's fresh wallet. */
const FRESH_USER = 3;

const ROWS: [string, Ask, RowOptions?][] = [
  [
    'send-token (USDC)',
    post('/api/send-token', {
      token: 'USDC',
      recipient: '0x000000000000000000000000000000000000dEaD',
      amount: '1',
    }),
  ],
  [
    'send-token (AVAX)',
    post('/api/send-token', {
      token: 'AVAX',
      recipient: '0x000000000000000000000000000000000000dEaD',
      amount: '0.01',
    }),
  ],
  ['mint-nft', mint],
  [
    'send-token (USDC), a block before each',
    post('/api/send-token', {
      token: 'USDC',
      recipient: '0x000000000000000000000000000000000000dEaD',
      amount: '1',
    }),
    { mine: true },
  ],
  [
    'best-swap (USDC→WAVAX, 2 pools)',
    post('/api/best-swap', { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '1' }),
  ],
  [
    'best-swap (USDC→WAVAX), a block before each',
    post('/api/best-swap', { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '1' }),
    { mine: true },
  ],
  [
    'best-swap approval (USDC→WAVAX, a fresh wallet)',
    post('/api/best-swap', { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '1' }, FRESH_USER),
    { approval: true },
  ],
  [
    'best-swap (AVAX→USDC, 2 pools)',
    post('/api/best-swap', { tokenIn: 'AVAX', tokenOut: 'USDC', amountIn: '0.01' }),
  ],
];

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The node's ms per answer: each answer's requests summed (one each in the steady state). */
function perAnswer(nodeMs: readonly number[], requests: number): number[] {
  const each = Math.max(1, Math.round(requests / ANSWERS));
  const sums: number[] = [];
  for (let i = 0; i < nodeMs.length; i += each) {
    sums.push(nodeMs.slice(i, i + each).reduce((a, b) => a + b, 0));
  }
  return sums;
}

/** Signs an approval answer, so that the next answers are the action itself. */
async function settle(testChain: TestChain, answer: Answer): Promise<void> {
  const shown = answer.body.params as { functionName?: string } | undefined;
  if (answer.status !== 200)
    throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  if (shown?.functionName !== 'approve') return;
  await signAndSend(
    testChain.chain,
    testChain.users[0],
    answer.body.serializedTransaction as string,
  );
}

export async function roundTrips(): Promise<string> {
  const testChain = await startTestChain();
  const recorder = await RpcRecorder.start(testChain.chain.rpcUrl, { delayMs: ONE_WAY_MS });
  const app = await createTestApp({
    env: {
      ...testChain.env,
      RPC_URL_43113: recorder.url,
      OUTCOME_POLL_MS: '600000',
      NFT_STORAGE_DIR: join(mkdtempSync(join(tmpdir(), 'bench-round-trips-')), 'store'),
      RATE_LIMIT_USER_MAX: '1000000',
      RATE_LIMIT_IP_MAX: '1000000',
    },
    actions: [SendTokenModule, MintNftModule, BestSwapModule],
  });
  const lines = [
    `\nround trips per answer, node behind a proxy adding ${ONE_WAY_MS} ms each way (RTT ${2 * ONE_WAY_MS} ms), ${ANSWERS} answers each, one at a time:`,
    '| action | p50 ms | p50 − RTT ms | node ms (p50) | p50 − RTT − node ms | batches / answer | calls / answer |',
    '|---|---|---|---|---|---|---|',
  ];
  try {
    for (const [name, ask, { mine: mining = false, approval = false } = {}] of ROWS) {
      if (!approval) {
        await settle(testChain, await ask(app, testChain));
        await settle(testChain, await ask(app, testChain));
      }
      recorder.reset();
      const times: number[] = [];
      for (let i = 0; i < ANSWERS; i++) {
        if (mining) await mine(testChain);
        const started = performance.now();
        const answer = await ask(app, testChain);
        times.push(performance.now() - started);
        if (answer.status !== 200) throw new Error(`${name}: ${answer.status}`);
        const shown = answer.body.params as { functionName?: string } | undefined;
        if (approval !== (shown?.functionName === 'approve'))
          throw new Error(`${name}: answered ${shown?.functionName}`);
      }
      const p50 = median(times);
      // The node's own time per answer (its requests' sum), so the service's share shows apart.
      const node = median(perAnswer(recorder.nodeMs, recorder.requests.length));
      const per = (n: number): string => (n / ANSWERS).toFixed(2);
      const over = p50 - 2 * ONE_WAY_MS;
      lines.push(
        `| ${name} | ${p50.toFixed(1)} | ${over.toFixed(1)} | ${node.toFixed(1)} | ${(over - node).toFixed(1)} | ${per(recorder.requests.length)} | ${per(recorder.calls.length)} |`,
      );
    }
    lines.push('| tip (a transfer the client builds) | — | — | 0 | 0 |');
    lines.push(
      `target: 1 batch per answer, p50 ≤ RTT + 15 ms; the node (Hardhat, in this process) is timed apart`,
    );
    return lines.join('\n');
  } finally {
    await app.close();
    await recorder.close();
    await testChain.stop();
  }
}

if (require.main === module) printAlone(roundTrips);
