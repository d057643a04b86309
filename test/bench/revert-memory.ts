/**
 * `node --expose-gc -r ts-node/register/transpile-only test/bench/revert-memory.ts`: what a
 * contract reverting with 1 MB of text costs the service (issue 33.2). A fake node, in its own
 * process so its buffers are not counted, answers every eth_call with `Error(string)` of 1 MB (the
 * reason in the message too, as geth writes it); send-token is asked for a transfer until it has
 * been refused --requests times, and resident memory and live heap are printed after a warm-up
 * and after each round. RSS is read here, not in the e2e suite: Jest's own process moves it by
 * tens of MB either way.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { createTestApp } from '../support/app.factory';
import { FAKE, fakeChainFile } from '../support/rpc-node.server';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '5' },
  },
});
const collect = globalThis.gc;
if (!collect) {
  console.error('Run with node --expose-gc');
  process.exit(1);
}

/** The node: plain JS for `node -e`, prints its port, answers from precomputed text. */
const NODE = `
const text = 'Sale: ' + 'x'.repeat(1000000);
const bytes = Buffer.from(text);
const word = (n) => n.toString(16).padStart(64, '0');
const data = '0x08c379a0' + word(32) + word(bytes.length) + bytes.toString('hex').padEnd(Math.ceil(bytes.length / 32) * 64, '0');
const revert = JSON.stringify({ code: 3, message: 'execution reverted: ' + text, data });
const results = { eth_chainId: '0xa869', eth_getBalance: '0xde0b6b3a7640000', eth_gasPrice: '0x77359400',
  eth_estimateGas: '0xea60', eth_getTransactionCount: '0x7', eth_blockNumber: '0x3e8' };
require('node:http').createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c)).on('end', () => {
    const parsed = JSON.parse(body);
    const answer = ({ id, method }) => method === 'eth_call'
      ? '{"jsonrpc":"2.0","id":' + id + ',"error":' + revert + '}'
      : JSON.stringify({ jsonrpc: '2.0', id, result: results[method] ?? '0x0' });
    const out = Array.isArray(parsed) ? '[' + parsed.map(answer).join(',') + ']' : answer(parsed);
    res.writeHead(200, { 'content-type': 'application/json' }).end(out);
  });
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

const MiB = 1024 * 1024;
const reading = (): string => {
  collect();
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  return `rss ${(rss / MiB).toFixed(1)} MiB, live heap ${((heapUsed + arrayBuffers) / MiB).toFixed(1)} MiB`;
};

async function main(): Promise<void> {
  const node = spawn(process.execPath, ['-e', NODE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = (await once(node.stdout, 'data')) as [Buffer];
  const app = await createTestApp({
    actions: [SendTokenModule],
    env: {
      NODE_ENV: 'production',
      CHAIN_CONFIG_FILE: fakeChainFile(`http://127.0.0.1:${port.toString().trim()}`),
    },
  });
  const query = new URLSearchParams({ token: 'AVAX', recipient: FAKE.recipient, amount: '0.5' });
  const refuse = async (): Promise<number> => {
    const response = await app.inject({
      method: 'POST',
      url: `/api/send-token?${query.toString()}`,
      headers: { 'x-wallet-address': FAKE.user },
    });
    if (response.statusCode !== 400) throw new Error(`answered ${response.statusCode}`);
    return response.rawPayload.length;
  };
  try {
    console.log(`booted: ${reading()}`);
    for (let i = 0; i < 5; i++) await refuse();
    console.log(`after 5 warm-up refusals: ${reading()}`);
    let largest = 0;
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (let i = 0; i < Number(values.requests); i++) largest = Math.max(largest, await refuse());
      console.log(`after ${round} × ${values.requests} refusals: ${reading()}`);
    }
    console.log(`largest refusal body: ${largest} bytes`);
  } finally {
    await app.close();
    node.kill();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
