/**
 * `npm run bench:intents`: what an intent costs Redis (docs/transaction-outcomes.md, "Bounds and
 * Redis memory"). Creates COUNT intents of `/api/send-token` through RedisIntentStore, as the
 * recorder writes them (checksummed addresses, a 32-character id, 118-byte ERC-20 `transfer`
 * calldata with its 50-byte tag, value, nonce, head block, origin, request uuid), under a fresh
 * 26-character key prefix in REDIS_TEST_URL's database, and prints `used_memory` of `INFO memory`
 * after minus before, divided by the count, for each kind of intent. Deletes its keys after.
 * Options: --count 10000.
 */
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { newAnswerTag, withTag } from '../../src/evm';
import type { TransactionIntent } from '../../src/outcomes';
import { RedisIntentStore } from '../../src/outcomes/redis-intent.store';
import { deleteKeys, REDIS_TEST_URL } from '../support/redis.helper';

const { values } = parseArgs({ options: { count: { type: 'string', default: '10000' } } });
const COUNT = Number(values.count);
const LIMITS = { perUser: 50, total: 10_000_000, perClient: 10_000_000, totalClaimed: 10_000_000 };
const address = (): `0x${string}` => getAddress(privateKeyToAccount(generatePrivateKey()).address);
const USDC = address();

function intent(user: `0x${string}`, signedIn: boolean, client: number): TransactionIntent {
  const id = newAnswerTag();
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [address(), 1_500_000n],
  });
  const now = Date.now();
  return {
    id,
    action: '/api/send-token',
    chainId: 43113,
    user,
    userLevel: signedIn ? 'siwe' : 'claimed',
    origin: signedIn ? 'siwe' : `ip:${String(client).padStart(16, 'x')}`,
    to: USDC,
    data: withTag(data, id)!.toLowerCase() as `0x${string}`,
    tagged: true,
    value: '0',
    nonce: 12,
    answeredBlock: '48213077',
    status: 'answered',
    createdAt: now,
    updatedAt: now,
    requestId: randomUUID(),
  };
}

/** Bytes each, for COUNT intents made by `make` and written by `write`. */
async function measure(
  admin: Redis,
  name: string,
  make: (i: number) => TransactionIntent,
  settle: boolean,
): Promise<void> {
  const prefix = `bench-intents:${randomUUID().slice(0, 12)}:`;
  const client = new Redis(REDIS_TEST_URL, { keyPrefix: prefix });
  const store = new RedisIntentStore(client, 2 * 86_400_000);
  const used = async (): Promise<number> =>
    Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
  const before = await used();
  for (let i = 0; i < COUNT; i++) {
    const made = make(i);
    await store.create(made, Date.now() + 86_400_000, LIMITS);
    if (settle) {
      const stored = (await store.get(made.id))!;
      const next = { ...made, status: 'confirmed' as const, hash: `0x${'ab'.repeat(32)}` as const };
      const settled = { ...next, blockNumber: '48213080', blockHash: next.hash };
      const deliveryId = `${made.id}.confirmed`;
      const outcome = { status: 'confirmed' as const, deliveryId, intent: settled, occurredAt: 1 };
      await store.replace(stored, settled, null, { deliveryId, outcome, leaseUntil: 1 });
      await store.outboxDone(deliveryId);
    }
  }
  const bytes = Math.round(((await used()) - before) / COUNT);
  console.log(`${name.padEnd(58)} ${String(bytes).padStart(6)} bytes each`);
  await deleteKeys(admin, prefix);
  await client.quit();
}

async function main(): Promise<void> {
  const admin = new Redis(REDIS_TEST_URL);
  console.log(
    `${COUNT} intents each, Redis ${/redis_version:(\S+)/.exec(await admin.info('server'))![1]}`,
  );
  const users = Array.from({ length: COUNT }, address);
  await measure(
    admin,
    'open, claimed, each user one, each from its own client',
    (i) => intent(users[i], false, i),
    false,
  );
  await measure(admin, 'open, signed in, each user one', (i) => intent(users[i], true, 0), false);
  await measure(
    admin,
    'open, claimed, ten per user from one client each',
    (i) => intent(users[Math.floor(i / 10)], false, Math.floor(i / 10)),
    false,
  );
  await measure(
    admin,
    'settled confirmed, within reorg reach',
    (i) => intent(users[i], false, i),
    true,
  );
  await admin.quit();
}

void main();
