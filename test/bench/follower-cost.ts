/**
 * What following the chain costs in RPC calls, with 1 and with 10,000 open intents: the bench's
 * last row (`npm run bench`), or alone with `npx ts-node --transpile-only test/bench/follower-cost.ts`.
 * A local chain mines a block a second, each with a transaction of a user with no intent; the
 * follower polls every second for 20 s through a JSON-RPC recorder, and the calls are scaled to
 * a minute. Flat means the two figures agree: the follower's work is per block, not per intent.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { newIntentId } from '../../src/outcomes/intent-id';
import { IntentsService } from '../../src/outcomes/intents.service';
import { startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { RpcRecorder } from '../support/rpc.recorder';
import { printAlone } from './bench.report';

const SECONDS = 20;
const address = (): `0x${string}` => privateKeyToAccount(generatePrivateKey()).address;

async function open(app: NestFastifyApplication, count: number): Promise<void> {
  const intents = app.get(IntentsService);
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    await intents.record({
      id: newIntentId(),
      action: '/api/send-token',
      chainId: 43113,
      user: address(),
      to: address(),
      data: '0x',
      value: '1',
      status: 'answered',
      createdAt: now,
      updatedAt: now,
    });
  }
}

async function callsPerMinute(testChain: TestChain, intents: number): Promise<number> {
  const recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
  const app = await createTestApp({
    env: {
      ...testChain.env,
      RPC_URL_43113: recorder.url,
      OUTCOME_POLL_MS: '1000',
      INTENT_MEMORY_MAX: '20000',
    },
  });
  try {
    await open(app, intents);
    const wallet = testChain.chain.wallet(testChain.users[3]);
    recorder.reset();
    const until = Date.now() + SECONDS * 1000;
    while (Date.now() < until) {
      await wallet.sendTransaction({ to: address(), value: 1n });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    return (recorder.calls.length * 60) / SECONDS;
  } finally {
    await app.close();
    await recorder.close();
  }
}

export async function followerCost(): Promise<string> {
  const testChain = await startTestChain();
  try {
    const one = await callsPerMinute(testChain, 1);
    const many = await callsPerMinute(testChain, 10_000);
    const change = ((many - one) / one) * 100;
    return `follower RPC calls a minute (a block a second): 1 open intent ${one.toFixed(0)}, 10,000 open intents ${many.toFixed(0)} (${change >= 0 ? '+' : ''}${change.toFixed(1)} %)`;
  } finally {
    await testChain.stop();
  }
}

if (require.main === module) printAlone(followerCost);
