/** What the bench measures: each server (a row of the table), the request it sends and how. */
import { readFileSync } from 'node:fs';
import { ENTRY_DIR } from './bench.entries';

/** The request a row's load sends, over and over. */
export interface Target {
  path: string;
  body: string;
  headers: Record<string, string>;
}

export interface ServerSpec {
  /** Short name for `--only`. */
  id: string;
  /** Row name in the table. */
  name: string;
  args: string[];
  env?: Record<string, string>;
  /** Default: the calculator. */
  target?: Target;
  /** Default: 50. */
  connections?: number;
  /** Count non-2xx answers and errors instead of stopping the bench on them. */
  countErrors?: boolean;
  /** Runs against the bench's local chain (started once, in its own process). */
  needsChain?: boolean;
  /** Refuses bad input with its packages' stock 400s: only the load's own request is compared. */
  stockRefusals?: boolean;
  /** Runs against the stub node (run-bench.ts starts it: answers from memory, at once). */
  needsStub?: boolean;
}

export const CALCULATOR: Target = {
  path: '/api/calculator',
  body: JSON.stringify({ params: { operation: 'add', a: 2, b: 3 } }),
  // A user address, so the full pipeline runs: the user guard and the per-user rate limit too.
  headers: {
    'content-type': 'application/json',
    'x-user-address': '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  },
};

/**
 * send-token's first declared sample (native AVAX on Fuji): built locally, then checked with one
 * JSON-RPC batch against the bench's local chain (BENCH_CHAIN_PORT), as every transaction is.
 */
export const SEND_TOKEN: Target = {
  path: '/api/send-token',
  body: JSON.stringify({
    params: {
      token: 'AVAX',
      recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      amount: '0.1',
    },
  }),
  headers: {
    'content-type': 'application/json',
    'x-user-address': '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  },
};

export const TS = ['-r', 'ts-node/register/transpile-only'];
/** Node's flags of `npm run start:prod` (package.json, what the container runs), for every Nest row. */
export const NODE_FLAGS = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
).scripts['start:prod']
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));
/** Where the bench's local chain (src/testing/evm/dev-chain.ts, as chain 43113) listens. */
export const BENCH_CHAIN_PORT = 3215;
const BENCH_CHAIN_URL = `http://127.0.0.1:${BENCH_CHAIN_PORT}`;
/**
 * The stub node's rows: a JSON-RPC server answering every method send-token's check asks from
 * memory (test/support/rpc-node.server.ts), so that a row's cost is the service's alone.
 * run-bench.ts starts it (listen(0)) and adds its chain file (CHAIN_CONFIG_FILE) to their env.
 */
const STUB_CHAIN = { TX_FILL: 'none' };
const OUT_OF_REACH = { RATE_LIMIT_IP_MAX: '1000000000', RATE_LIMIT_USER_MAX: '1000000000' };
/** The shipped my-transactions declares user: 'verified': production needs a session key. */
const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'QPftIliESLysXUFyWpd3NNp4omeDCeJS9s2vUXw7HLk=',
  ...OUT_OF_REACH,
};
export const RATE_KEYS = 1_000_000;
export const GENERATED_ACTIONS = 200;

/** Every row, in the order of the first round (the next one runs them backwards). */
export const SERVERS: ServerSpec[] = [
  { id: 'memory', name: 'nest (memory)', args: [...NODE_FLAGS, 'dist/main.js'], env: PRODUCTION },
  {
    id: 'redis',
    name: 'nest (redis)',
    args: [...NODE_FLAGS, 'dist/main.js'],
    env: { ...PRODUCTION, REDIS_URL: 'redis://127.0.0.1:6379/15' },
  },
  {
    id: 'send-token',
    name: 'nest send-token (tx, simulated)',
    args: [...NODE_FLAGS, 'dist/main.js'],
    // TX_FILL's default, set in case the shell has another: the node is asked only to simulate.
    env: { ...PRODUCTION, TX_FILL: 'none', RPC_URL_43113: BENCH_CHAIN_URL },
    target: SEND_TOKEN,
    needsChain: true,
  },
  {
    id: 'send-token-unchecked',
    name: 'nest send-token (tx, TX_SIMULATE=off)',
    args: [...NODE_FLAGS, 'dist/main.js'],
    env: { ...PRODUCTION, TX_FILL: 'none', TX_SIMULATE: 'off' },
    target: SEND_TOKEN,
  },
  {
    id: 'send-stub',
    name: 'nest send-token (tx, simulated), instant stub node',
    args: [...NODE_FLAGS, 'dist/main.js'],
    env: { ...PRODUCTION, ...STUB_CHAIN },
    target: SEND_TOKEN,
    needsStub: true,
  },
  {
    id: 'send-stub-unchecked',
    name: 'nest send-token (tx, TX_SIMULATE=off), instant stub node',
    args: [...NODE_FLAGS, 'dist/main.js'],
    env: { ...PRODUCTION, ...STUB_CHAIN, TX_SIMULATE: 'off' },
    target: SEND_TOKEN,
    needsStub: true,
  },
  {
    id: 'actions',
    name: `nest (+${GENERATED_ACTIONS} actions)`,
    args: [...NODE_FLAGS, `${ENTRY_DIR}/many-actions.main.js`],
    env: { ...PRODUCTION, GENERATED_ACTIONS: String(GENERATED_ACTIONS) },
  },
  {
    id: 'keys',
    name: 'nest (1M rate keys held)',
    args: [...NODE_FLAGS, `${ENTRY_DIR}/rate-keys.main.js`],
    env: { ...PRODUCTION, RATE_KEYS: String(RATE_KEYS), RATE_LIMIT_MAX_KEYS: String(RATE_KEYS) },
  },
  {
    id: 'conns',
    name: 'nest (2000 connections)',
    args: [...NODE_FLAGS, 'dist/main.js'],
    env: PRODUCTION,
    connections: 2000,
    countErrors: true,
  },
  // The card's shape with nothing in it: what any service of that shape can at best serve.
  {
    id: 'floor',
    name: 'nest floor (CORS, 1 guard, envelope interceptor, filter)',
    // With the service's own Node flags: the comparison is of the layers, not of V8's settings.
    args: [...NODE_FLAGS, ...TS, 'test/bench/nest-floor.server.ts'],
  },
  // Nest's router alone, under the floor: what anything built on it can at best serve.
  {
    id: 'nest-bare',
    name: 'nest bare (one controller, nothing else)',
    args: [...NODE_FLAGS, ...TS, 'test/bench/nest-bare.server.ts'],
  },
  // The same shape with the card's own packages doing their stock work (throttler, ValidationPipe).
  {
    id: 'card',
    name: 'nest card, stock packages (floor + origin guard, throttler, ValidationPipe)',
    args: [...NODE_FLAGS, ...TS, 'test/bench/nest-card.server.ts'],
    stockRefusals: true,
  },
  { id: 'fastify', name: 'bare fastify', args: [...TS, 'test/bench/bare-fastify.server.ts'] },
  { id: 'express', name: 'express 5', args: [...TS, 'test/bench/express.server.ts'] },
];
