import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { encodeAbiParameters, type Hex } from 'viem';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { createTestApp } from '../support/app.factory';
import { CountingServer, type CountedHandler } from '../support/counting.server';
import { FAKE, fakeChainFile, healthyChain } from '../support/rpc-node.server';

// Memory per refusal is a benchmark's to measure (test/bench/revert-memory.ts), not a test's.
const KiB = 1024;
/** What a refusal's body may weigh, whatever the contract reverted with (issue 33.2). */
const MAX_BODY = 4 * KiB;

const errorString = (text: string): Hex =>
  `0x08c379a0${encodeAbiParameters([{ type: 'string' }], [text]).slice(2)}`;

/** 1 MB of text, as a red-team contract reverts with. */
const MEGABYTE = `Sale: ${'x'.repeat(1_000_000)}`;
/** The same, with what a terminal or a log viewer would act on, and a URL with a key. */
const HOSTILE = `Frozen\r\n{"level":"fatal"}\u0000\u001b[2J\u202e https://rpc.example/v3/s3cret ${'y'.repeat(1_000_000)}`;

/**
 * A node whose eth_call to a contract reverts with `Error(reason)`, the revert data in
 * `error.data` and, as geth writes it, the reason in the message too; every other call (the head
 * probe too: it has no `to`) answers as a healthy chain.
 * The error is serialized once: the node's own work should not be what the test measures.
 */
function revertingNode(reason: string): CountedHandler {
  const methods = healthyChain();
  const revert = JSON.stringify({
    code: 3,
    message: `execution reverted: ${reason}`,
    data: errorString(reason),
  });
  return (_req, res, body) => {
    const parsed = JSON.parse(body) as { id: number; method: string; params?: unknown[] }[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const answers = calls.map(({ id, method, params = [] }) =>
      method === 'eth_call' && (params[0] as { to?: string }).to
        ? `{"jsonrpc":"2.0","id":${id},"error":${revert}}`
        : JSON.stringify({ jsonrpc: '2.0', id, result: methods[method](params) }),
    );
    const text = Array.isArray(parsed) ? `[${answers.join(',')}]` : answers[0];
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  };
}

interface Refusal {
  status: number;
  bytes: number;
  body: Record<string, unknown>;
}

/** The transfer the platform asks for, as raw bytes and parsed. */
async function sendToken(app: NestFastifyApplication): Promise<Refusal> {
  const query = new URLSearchParams({ token: 'AVAX', recipient: FAKE.recipient, amount: '0.5' });
  const response = await app.inject({
    method: 'POST',
    url: `/api/send-token?${query.toString()}`,
    headers: { 'x-wallet-address': FAKE.user },
  });
  return {
    status: response.statusCode,
    bytes: response.rawPayload.length,
    body: response.json<Record<string, unknown>>(),
  };
}

/** Every text of the body, for the checks on what it quotes. */
const texts = (body: Record<string, unknown>): string[] =>
  Object.values(body).filter((value): value is string => typeof value === 'string');

describe.each(['production', 'development'])(
  'A contract reverting with megabytes of text (NODE_ENV=%s)',
  (nodeEnv) => {
    let node: CountingServer;
    let app: NestFastifyApplication;

    beforeAll(async () => {
      node = await CountingServer.start(revertingNode(MEGABYTE));
      app = await createTestApp({
        actions: [SendTokenModule],
        env: { NODE_ENV: nodeEnv, CHAIN_CONFIG_FILE: fakeChainFile(node.base) },
      });
    });
    afterAll(async () => {
      await app.close();
      await node.close();
    });

    it('is refused 400 with a body under 4 KiB quoting 200 characters of the reason', async () => {
      node.handler = revertingNode(MEGABYTE);
      const { status, bytes, body } = await sendToken(app);
      expect(status).toBe(400);
      expect(bytes).toBeLessThan(MAX_BODY);
      expect(body).toMatchObject({ code: 'WOULD_REVERT' });
      expect(body.error).toMatch(/^The transaction would fail: Sale: x+…$/);
      expect((body.error as string).length).toBeLessThanOrEqual(
        'The transaction would fail: '.length + 200,
      );
      // The decoded revert is a developer's: shown in development only, bounded there too.
      if (nodeEnv === 'development') expect(body.details).toMatch(/^eth_call reverted: Error\(/);
      else expect(body.details).toBeUndefined();
    });

    it('quotes no control character and no URL of the reason', async () => {
      node.handler = revertingNode(HOSTILE);
      const { status, bytes, body } = await sendToken(app);
      expect(status).toBe(400);
      expect(bytes).toBeLessThan(MAX_BODY);
      expect(body.error).toMatch(
        /^The transaction would fail: Frozen \{"level":"fatal"\} \[2J <url> y+…$/,
      );
      for (const text of texts(body)) {
        // eslint-disable-next-line no-control-regex -- looking for control characters is the point
        expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
        expect(text).not.toMatch(/s3cret|https?:|127\.0\.0\.1/);
      }
    });

    // Live memory, not RSS: Jest's own process moves RSS by tens of MB either way. RSS is read
    // by test/bench/revert-memory.ts, its figures in docs/hardening.md.
  },
);
