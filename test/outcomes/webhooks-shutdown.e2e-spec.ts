import { startTestChain, type TestChain } from '../../src/testing';
import {
  buildProduction,
  type ProductionBuild,
  ProductionServer,
} from '../support/production.server';
import { freePort } from '../support/redis.helper';
import { WEBHOOK_HEADERS } from '../../src/kit/webhook-signature';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from '../support/webhook.receiver';

const SHUTDOWN_TIMEOUT_MS = 8000;
const RECIPIENT = '0x000000000000000000000000000000000000dEaD';

/**
 * Issue 32, item 6: at SIGTERM the in-memory queue (no REDIS_URL) starts no attempt, and the
 * process still exits 0 within SHUTDOWN_TIMEOUT_MS, on the production build run as the container
 * runs it. Two deliveries are under way at the signal: one whose receiver answers 500 (a retry a
 * few tens of milliseconds away, which the pre-stop delay would let through were the queue told
 * only when the application closes), one whose receiver never answers (an attempt in flight that
 * WEBHOOK_TIMEOUT_MS alone would hold past the shutdown timeout).
 */
describe('Webhooks in memory at SIGTERM, on the production build', () => {
  let build: ProductionBuild;
  let testChain: TestChain;
  let receiver: WebhookReceiver;
  let server: ProductionServer | undefined;

  beforeAll(async () => {
    [build, testChain, receiver] = await Promise.all([
      buildProduction(),
      startTestChain(),
      WebhookReceiver.start(),
    ]);
  }, 180_000);
  afterAll(async () => {
    server?.stop();
    await receiver?.close();
    await testChain?.stop();
    await build?.remove();
  });

  /** A send-token answer from the child: its intent expires, unreported, within a second. */
  async function intentOf(port: number, user: string): Promise<string> {
    const query = new URLSearchParams({ token: 'AVAX', recipient: RECIPIENT, amount: '0.01' });
    const response = await fetch(`http://127.0.0.1:${port}/api/send-token?${query.toString()}`, {
      method: 'POST',
      headers: { 'x-wallet-address': user, connection: 'close' },
    });
    const intent = response.headers.get('x-action-intent');
    if (response.status !== 200 || !intent)
      throw new Error(`No intent: ${response.status} ${await response.text()}`);
    return intent;
  }

  it('starts no attempt after the signal, abandons the one in flight in time, exits 0', async () => {
    const port = await freePort();
    const child = await ProductionServer.start(build.main, port, {
      ...testChain.env,
      REDIS_URL: '',
      INTENT_TTL_S: '1',
      OUTCOME_POLL_MS: '50',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      WEBHOOK_MAX_ATTEMPTS: '20',
      WEBHOOK_BACKOFF_MS: '50',
      WEBHOOK_TIMEOUT_MS: '60000',
      SHUTDOWN_DELAY_MS: '1000',
      SHUTDOWN_DRAIN_MS: '1000',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    server = child;
    const failing = `${await intentOf(port, testChain.users[0].address)}.expired`;
    const hung = `${await intentOf(port, testChain.users[1].address)}.expired`;

    // The signal goes from inside the receiver, while it holds a retry of `failing` (answered 500
    // once the service has taken the signal): nothing of this delivery is then on its way, its
    // attempt in flight ends after the signal, and the hung attempt is in flight too.
    let receivedAtSignal = -1;
    let signalledAt = 0;
    receiver.answer = (nth, id) => {
      if (id === hung) return 'hang';
      if (receivedAtSignal >= 0 || nth < 2 || receiver.of(hung).length === 0) return 500;
      child.signal('SIGTERM');
      signalledAt = Date.now();
      receivedAtSignal = receiver.received.length;
      return child.waitFor(/SIGTERM received/).then(() => 500);
    };
    await receiver.until(() => receivedAtSignal >= 0);
    const code = await child.exited;
    const elapsed = Date.now() - signalledAt;

    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    // Every request the receiver ever got came before the signal.
    const late = receiver.received.slice(receivedAtSignal);
    expect(late.map(({ headers }) => headers[WEBHOOK_HEADERS.id])).toEqual([]);
    expect(receiver.of(hung)).toHaveLength(1);
    expect(child.log).toMatch(
      new RegExp(`Webhook ${failing} failed \\(HTTP 500\\), attempt \\d+/20: not retried`),
    );
    expect(child.log).toMatch(
      new RegExp(`Webhook ${hung} failed \\(abandoned: shutting down\\), attempt 1/20`),
    );
    expect(child.log).toMatch(/Stopped: every accepted request was answered/);
    expect(child.log).not.toMatch(/Shutdown still/);
  }, 60_000);
});
