import { passed, runChaos } from './chaos.run';

/**
 * Issue 43, the chaos proof made small for every `npm test`: 50 intents settled by two replicas
 * of the production build on a private Redis, one of them killed with SIGKILL and restarted at a
 * random moment. Every webhook is accepted (duplicates deduplicated by delivery id), and the
 * follower's cursor never moves backwards. `npm run chaos` is the full run (1,000 intents, kills
 * of both replicas, Redis restarted, the receiver down then failing): docs/testing.md, "Chaos".
 */
describe('Chaos: a replica killed mid-run loses no webhook (production build, Redis)', () => {
  it('50 intents, one replica killed: every webhook accepted, the cursor never backwards', async () => {
    const report = await runChaos({
      intents: 50,
      kills: 1,
      restartRedis: false,
      receiverChaos: false,
      // A job in flight when its replica died is taken again once BullMQ finds it stalled (30 s).
      settleMs: 90_000,
      log: () => undefined,
    });
    expect({ ...report, cursor: { ...report.cursor, first: 0, last: 0 } }).toMatchObject({
      intents: 50,
      uniqueIds: 50,
      missing: [],
      unexpected: [],
      unverified: 0,
      kills: 1,
      errors: [],
      cursor: { backwards: [] },
    });
    expect(report.cursor.samples).toBeGreaterThan(0);
    expect(passed(report)).toBe(true);
    // The build, the chain and the replicas' boots, then the intents and the recovery: every wait
    // is on an event or a condition with a deadline, so this bounds a broken run only.
  }, 300_000);
});
