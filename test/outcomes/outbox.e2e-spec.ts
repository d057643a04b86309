import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { OutboxRelay } from '../../src/outcomes/outbox-relay';
import { DELIVERY_QUEUE, type DeliveryQueue } from '../../src/outcomes/webhooks/webhook-delivery';
import { signAndSend } from '../../src/testing';
import { until } from '../support/chain-driver.helper';
import { heard, heardOutcomes, readIntent, sendTokenIntent } from '../support/outcomes.helper';
import { describeWithRedis } from '../support/redis.helper';
import { outcomesSuite } from '../support/outcomes-suite.helper';

const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Issue 43, the outbox: an outcome is written with the transition that settles it, and delivered
 * (its webhook queued, its hooks run) from there. A replica that dies between the two, or a queue
 * that fails the enqueue, loses nothing: another replica's sweep (at boot, then every
 * OUTBOX_SWEEP_MS) delivers it, and the receiver hears it exactly once.
 */
describeWithRedis()('Outcomes delivered from the outbox (Redis, BullMQ)', () => {
  const suite = outcomesSuite('outbox', {
    webhooks: true,
    env: { OUTCOME_HOOK_ATTEMPTS: '2', OUTCOME_HOOK_BACKOFF_MS: '10', OUTBOX_SWEEP_MS: '100' },
  });
  const apps: NestFastifyApplication[] = [];
  const start = async (): Promise<NestFastifyApplication> => {
    const app = await suite.start();
    apps.push(app);
    return app;
  };

  const settleOne = async (app: NestFastifyApplication, amount: string): Promise<string> => {
    const user = suite.testChain.users[0];
    const answer = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount },
      user.address,
    );
    await signAndSend(suite.testChain.chain, user, answer.body.serializedTransaction as string);
    await until(
      async () => (await readIntent(app, answer.intent)).body.data?.status === 'confirmed',
      'confirmed',
    );
    return answer.intent;
  };
  const deliveries = (intent: string): number => suite.receiver.of(`${intent}.confirmed`).length;

  it('a replica that dies right after the transition: the next one delivers it at boot, once', async () => {
    const first = await start();
    // As if the process died between writing the transition and delivering it.
    jest.spyOn(first.get(OutboxRelay), 'drive').mockImplementation(() => undefined);
    const intent = await settleOne(first, '0.11');
    await first.close();
    expect(deliveries(intent)).toBe(0);
    expect(heardOutcomes.filter((o) => o.intent.id === intent)).toEqual([]);
    await start();
    await suite.receiver.until(() => deliveries(intent) > 0);
    const outcome = await heard(intent, 'confirmed');
    expect(outcome.deliveryId).toBe(`${intent}.confirmed`);
    expect(JSON.parse(suite.receiver.of(`${intent}.confirmed`)[0].body)).toMatchObject({
      type: 'transaction.confirmed',
      intent,
    });
    // Swept again and again: nothing more is delivered.
    const relay = apps.at(-1)!.get(OutboxRelay);
    await relay.sweep();
    await relay.sweep();
    expect(deliveries(intent)).toBe(1);
    expect(heardOutcomes.filter((o) => o.intent.id === intent)).toHaveLength(1);
  });

  it('a queue that fails the enqueue: the entry stays, and a sweep delivers it once', async () => {
    const app = apps.at(-1)!;
    const queue = app.get<DeliveryQueue>(DELIVERY_QUEUE);
    const enqueue = queue.enqueue.bind(queue);
    const spy = jest
      .spyOn(queue, 'enqueue')
      .mockImplementationOnce(() => Promise.reject(new Error('Connection is closed.')))
      .mockImplementation(enqueue);
    const intent = await settleOne(app, '0.12');
    await suite.receiver.until(() => deliveries(intent) > 0);
    expect(spy.mock.calls.length).toBeGreaterThanOrEqual(2);
    await heard(intent, 'confirmed');
    await app.get(OutboxRelay).sweep();
    expect(deliveries(intent)).toBe(1);
  });
});
