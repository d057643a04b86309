import { Global, Injectable, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventEmitter, once } from 'node:events';
import type { HDAccount, Hash } from 'viem';
import { bestSwapAction } from '../../src/actions/best-swap/best-swap.action';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { sendTokenAction } from '../../src/actions/send-token/send-token.action';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import {
  OnTransactionOutcome,
  OUTCOME_SINK,
  type OutcomeSink,
  type TransactionOutcome,
} from '../../src/outcomes';
import type { LocalChain } from '../../src/testing/evm/local-chain';
import { signAnswer } from './chain-driver.helper';
import { type ActionAnswer, runAction } from './platform';

/** Every outcome the hook below was told of, across the apps of a suite, in order. */
export const heardOutcomes: TransactionOutcome[] = [];
/**
 * Emits `<intent>:<status>` with the outcome each time a hook hears one, so `heard` waits on an
 * event instead of polling.
 */
export const outcomeEvents = new EventEmitter();

/** A team's hook, as an action module would declare it: every event of send-token's. */
@Injectable()
export class OutcomeRecorder {
  /** Records the outcome in `heardOutcomes` and announces it on `outcomeEvents`. */
  @OnTransactionOutcome(sendTokenAction)
  record(outcome: TransactionOutcome): void {
    heardOutcomes.push(outcome);
    outcomeEvents.emit(`${outcome.intent.id}:${outcome.status}`, outcome);
  }
}

/** What the sink below was handed, as a webhooks module's sink would be. */
export const sunkOutcomes: TransactionOutcome[] = [];

@Injectable()
class RecordingSink implements OutcomeSink {
  deliver(outcome: TransactionOutcome): Promise<void> {
    sunkOutcomes.push(outcome);
    return Promise.resolve();
  }
}

/** An OutcomeSink bound the way a webhooks module binds one: a global module exporting it. */
@Global()
@Module({
  providers: [{ provide: OUTCOME_SINK, useClass: RecordingSink }],
  exports: [OUTCOME_SINK],
})
export class RecordingSinkModule {}

/**
 * send-token with OutcomeRecorder registered: pass it as `actions` to createTestApp to hear its
 * outcomes.
 */
@Module({ imports: [SendTokenModule], providers: [OutcomeRecorder] })
export class SendTokenWithHookModule {}

/** The same hook on best-swap: its approval and its swap are two transaction answers. */
@Injectable()
export class SwapOutcomeRecorder {
  /** Records the outcome in `heardOutcomes` and announces it on `outcomeEvents`. */
  @OnTransactionOutcome(bestSwapAction)
  record(outcome: TransactionOutcome): void {
    heardOutcomes.push(outcome);
    outcomeEvents.emit(`${outcome.intent.id}:${outcome.status}`, outcome);
  }
}

/**
 * best-swap with SwapOutcomeRecorder registered: pass it as `actions` to createTestApp to hear its
 * outcomes.
 */
@Module({ imports: [BestSwapModule], providers: [SwapOutcomeRecorder] })
export class BestSwapWithHookModule {}

/** Resolves once the hook heard `status` for `intent` (or at once if it already has). */
export async function heard(intent: string, status: string): Promise<TransactionOutcome> {
  const past = heardOutcomes.find((o) => o.intent.id === intent && o.status === status);
  if (past) return past;
  const [outcome] = (await once(outcomeEvents, `${intent}:${status}`)) as [TransactionOutcome];
  return outcome;
}

/**
 * How many outcomes the hooks heard for `intent`, so a test can prove one was told once and only
 * once.
 */
export const heardCount = (intent: string): number =>
  heardOutcomes.filter((o) => o.intent.id === intent).length;

/**
 * A transaction answer with the intent id of its `x-action-intent` header, the handle a client
 * reports its hash and reads the outcome with.
 */
export interface IntentAnswer extends ActionAnswer {
  intent: string;
}

/** A send-token answer for `user`, with the intent its header names. */
export async function sendTokenIntent(
  app: NestFastifyApplication,
  params: Record<string, string>,
  user: string,
): Promise<IntentAnswer> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/send-token?${new URLSearchParams(params).toString()}`,
    headers: { 'x-wallet-address': user },
  });
  const intent = response.headers['x-action-intent'];
  if (response.statusCode !== 200 || typeof intent !== 'string') {
    throw new Error(`No intent: ${response.statusCode} ${response.body}`);
  }
  return { status: response.statusCode, body: response.json(), intent };
}

/**
 * Signs and sends like a wallet that ignores a refusal (gas set by hand): the hash is known
 * before the node answers, so a transaction that reverts (Hardhat mines it and answers its
 * revert as the send's error) still has one. `waitForReceipt: false` for a chain that does not
 * mine on its own (automine off).
 */
export async function sendAnyway(
  chain: LocalChain,
  account: HDAccount,
  serialized: string,
  { waitForReceipt = true }: { waitForReceipt?: boolean } = {},
): Promise<Hash> {
  const { raw, hash } = await signAnswer(chain, account, serialized);
  const client = chain.publicClient;
  await client.sendRawTransaction({ serializedTransaction: raw }).catch(() => undefined);
  if (waitForReceipt) await client.waitForTransactionReceipt({ hash });
  return hash;
}

/** An answer of the intents endpoint, envelope parsed. */
export interface Answered<T = Record<string, unknown>> {
  status: number;
  body: { success: boolean; data?: T; error?: string; statusCode: number } & Record<
    string,
    unknown
  >;
}

/**
 * An intent as the service shows it: its action, chain, status and, once known, its hash and block.
 */
export interface IntentData {
  intent: string;
  action: string;
  chainId: number;
  status: string;
  hash?: string;
  blockNumber?: string;
  updatedAt: number;
}

/**
 * Reports the hash a wallet sent for `intent` (POST /api/transactions/:intent), as a client does,
 * so the follower starts watching it. `hash` is unknown so a test can send a malformed one.
 */
export async function reportHash(
  app: NestFastifyApplication,
  intent: string,
  hash: unknown,
): Promise<Answered<IntentData>> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/transactions/${intent}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ hash }),
  });
  return { status: response.statusCode, body: response.json() };
}

/**
 * Reads an intent's status (GET /api/transactions/:intent), as a client polling for the outcome
 * does.
 */
export async function readIntent(
  app: NestFastifyApplication,
  intent: string,
): Promise<Answered<IntentData>> {
  const response = await app.inject({ method: 'GET', url: `/api/transactions/${intent}` });
  return { status: response.statusCode, body: response.json() };
}

export { runAction };
