import type { Address, HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signAndSend, type TestChain } from '../../src/testing';
import type { Replica } from './chaos.replicas';

/** How long one intent may take to be answered, every replica and Redis restart included. */
const ANSWER_DEADLINE_MS = 60_000;
/** Between two tries of a request that found no replica or Redis: a client's retry, bounded. */
const RETRY_MS = 100;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks a live replica (round robin) for a send-token answer; the intent id and transaction. */
async function answerOnce(
  replicas: readonly Replica[],
  turn: number,
  user: Address,
): Promise<{ intent: string; transaction: string } | undefined> {
  const live = replicas.filter((replica) => replica.live);
  if (live.length === 0) return undefined;
  // A fresh recipient each try: an answer lost with a killed replica leaves an intent that no
  // transaction of ours can match (untagged intents match on `to` and `value`).
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const query = new URLSearchParams({ token: 'AVAX', recipient, amount: '0.001' });
  try {
    const response = await fetch(
      `${live[turn % live.length].base}/api/send-token?${query.toString()}`,
      {
        method: 'POST',
        headers: { 'x-wallet-address': user },
        signal: AbortSignal.timeout(15_000),
      },
    );
    const body = (await response.json()) as { serializedTransaction?: string };
    const intent = response.headers.get('x-action-intent');
    if (response.status !== 200 || !intent || !body.serializedTransaction) return undefined;
    return { intent, transaction: body.serializedTransaction };
  } catch {
    // The replica was killed mid-request, or answered no JSON while Redis was down: try again.
    return undefined;
  }
}

/**
 * Creates `count` intents from outside, as users do: each is answered by a live replica, then
 * signed and sent by its user on the local chain. The four users take turns; each user's own
 * transactions go one after another (so their nonces never collide), the users side by side.
 * `onSent` is told after each mined transaction (the run's clock for its chaos).
 */
export async function sendIntents(
  testChain: TestChain,
  replicas: readonly Replica[],
  count: number,
  onSent: (intent: string) => void,
): Promise<string[]> {
  const intents: string[] = [];
  const perUser = (user: HDAccount, index: number): number[] =>
    Array.from({ length: count }, (_, n) => n).filter((n) => n % testChain.users.length === index);
  await Promise.all(
    testChain.users.map(async (user, index) => {
      for (const n of perUser(user, index)) {
        const deadline = Date.now() + ANSWER_DEADLINE_MS;
        let answer = await answerOnce(replicas, n, user.address);
        for (let tries = 1; !answer; tries += 1) {
          if (Date.now() > deadline) throw new Error(`intent ${n}: no answer after ${tries} tries`);
          await pause(RETRY_MS);
          answer = await answerOnce(replicas, n + tries, user.address);
        }
        await signAndSend(testChain.chain, user, answer.transaction);
        intents.push(answer.intent);
        onSent(answer.intent);
      }
    }),
  );
  return intents;
}
