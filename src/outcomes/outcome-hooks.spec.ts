import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { APP_CONFIG } from '../config/app.config';
import type { ActionDeclaration } from '../contract/action.types';
import { ActionRegistry } from '../kit/action.registry';
import { OnTransactionOutcome } from './on-transaction-outcome.decorator';
import { OutcomeHooks } from './outcome-hooks';
import { OUTCOME_SINK, type OutcomeSink, type TransactionOutcome } from './outcome.types';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

const served = { label: 'Pay', chains: { source: 43113 }, path: '/api/pay' } as ActionDeclaration;
const elsewhere = {
  label: 'Other',
  chains: { source: 1 },
  path: '/api/other',
} as ActionDeclaration;

const calls: { name: string; outcome: TransactionOutcome }[] = [];
let failures = 0;

@Injectable()
class PaymentHooks {
  @OnTransactionOutcome(served, 'confirmed')
  deliver(outcome: TransactionOutcome): void {
    calls.push({ name: 'deliver', outcome });
  }

  @OnTransactionOutcome(served, 'reverted')
  flaky(outcome: TransactionOutcome): Promise<void> {
    calls.push({ name: 'flaky', outcome });
    // A rejected promise, as an async hook's failure arrives.
    return failures-- > 0 ? Promise.reject(new Error('database down')) : Promise.resolve();
  }
}

@Injectable()
class StrayHooks {
  @OnTransactionOutcome(elsewhere)
  never(): void {}
}

const outcome = (id: string, status: TransactionOutcome['status']): TransactionOutcome => ({
  status,
  deliveryId: `${id}.${status}`,
  occurredAt: 2,
  intent: {
    id,
    action: '/api/pay',
    chainId: 43113,
    user: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    data: '0x',
    value: '0',
    status: status === 'reorged' ? 'confirmed' : status,
    createdAt: 1,
    updatedAt: 2,
  },
});

async function hooksWith(providers: unknown[], sink?: OutcomeSink): Promise<OutcomeHooks> {
  const config: Partial<OutcomesConfig> = { hookAttempts: 3, hookBackoffMs: 100 };
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [
      ...(providers as []),
      OutcomeHooks,
      {
        provide: ActionRegistry,
        useValue: { find: (p?: string) => (p === served.path ? served : undefined) },
      },
      { provide: OUTCOMES_CONFIG, useValue: config },
      { provide: APP_CONFIG, useValue: { nodeEnv: 'test' } },
      ...(sink ? [{ provide: OUTCOME_SINK, useValue: sink }] : []),
    ],
  }).compile();
  await moduleRef.init();
  return moduleRef.get(OutcomeHooks);
}

describe('OutcomeHooks', () => {
  beforeEach(() => {
    calls.length = 0;
    failures = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('tells the sink, then runs the hooks of the event, each given the delivery id', async () => {
    const delivered: TransactionOutcome[] = [];
    const hooks = await hooksWith([PaymentHooks], {
      deliver: (o) => Promise.resolve(void delivered.push(o)),
    });
    await hooks.dispatch(outcome('i1', 'confirmed'));
    await hooks.dispatch(outcome('i2', 'expired'));
    expect(calls.map((c) => `${c.name} ${c.outcome.deliveryId}`)).toEqual(['deliver i1.confirmed']);
    expect(delivered.map((o) => `${o.intent.id} ${o.status}`)).toEqual([
      'i1 confirmed',
      'i2 expired',
    ]);
  });

  it('retries a throwing hook with a doubling backoff, up to the attempts configured', async () => {
    const hooks = await hooksWith([PaymentHooks]);
    jest.useFakeTimers();
    failures = 10;
    const done = hooks.dispatch(outcome('i3', 'reverted'));
    await jest.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(199);
    expect(calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(3);
    // Given up after the last attempt: the delivery is done (the relay removes its entry).
    await expect(done).resolves.toBeUndefined();
  });

  it('stops retrying once the hook succeeds', async () => {
    const hooks = await hooksWith([PaymentHooks]);
    jest.useFakeTimers();
    failures = 1;
    const done = hooks.dispatch(outcome('i4', 'reverted'));
    await jest.advanceTimersByTimeAsync(60_000);
    await done;
    expect(calls).toHaveLength(2);
  });

  it('a sink that fails fails the delivery, before any hook runs: the outbox keeps it', async () => {
    const hooks = await hooksWith([PaymentHooks], {
      deliver: () => Promise.reject(new Error('queue down')),
    });
    await expect(hooks.dispatch(outcome('i5', 'confirmed'))).rejects.toThrow('queue down');
    expect(calls).toHaveLength(0);
  });

  it('stops the boot when a hook names an action the app does not serve', async () => {
    await expect(hooksWith([StrayHooks])).rejects.toThrow(
      '@OnTransactionOutcome on StrayHooks.never names /api/other, which is no transaction action this app serves',
    );
  });
});
