/**
 * `npm run chaos -- [--intents 1000] [--kills 6] [--settle-seconds 300]`: the chaos proof of issue
 * 43 (docs/testing.md, "Chaos"). Two replicas of the production build on one private Redis
 * settle the intents on a local chain while replicas are killed with SIGKILL and restarted, Redis
 * is killed and restarted once, and the webhook receiver is down, then fails 10% of requests.
 * Passes when every intent's webhook was accepted (by delivery id, duplicates counted), no
 * unknown one came, and the follower's cursor never moved backwards.
 */
import { parseArgs } from 'node:util';
import { type ChaosReport, passed, runChaos, runningTeardowns } from './chaos.run';

const { values } = parseArgs({
  options: {
    intents: { type: 'string', default: '1000' },
    kills: { type: 'string', default: '6' },
    'settle-seconds': { type: 'string', default: '300' },
  },
});

function print(report: ChaosReport): void {
  const { cursor } = report;
  const lines = [
    `intents             ${report.intents}`,
    `deliveries          ${report.deliveries} (answered 500: ${report.answered500}, unverified: ${report.unverified})`,
    `unique ids          ${report.uniqueIds}`,
    `duplicates          ${report.duplicates} (requests past an id's first; ids accepted twice: ${report.acceptedTwice})`,
    `missing             ${report.missing.length}${report.missing.length ? ` e.g. ${report.missing.slice(0, 3).join(', ')}` : ''}`,
    `unexpected ids      ${report.unexpected.length}`,
    `outbox left         ${report.outboxLeft}`,
    `replica kills       ${report.kills}; Redis restarts ${report.redisRestarts}`,
    `cursor samples      ${cursor.samples} (unreadable ${cursor.unreadable}), block ${cursor.first} -> ${cursor.last}, backwards ${cursor.backwards.length}`,
    `took                ${report.seconds} s`,
    ...report.errors.map((error) => `error               ${error}`),
  ];
  console.log(lines.join('\n'));
}

async function main(): Promise<void> {
  const report = await runChaos({
    intents: Number(values.intents),
    kills: Number(values.kills),
    restartRedis: true,
    receiverChaos: true,
    settleMs: Number(values['settle-seconds']) * 1000,
    log: (line) => console.error(`[chaos] ${line}`),
  });
  print(report);
  const ok = passed(report);
  console.log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
}

// Ctrl-C (or a timeout's SIGINT): the replicas and the private Redis go with the run.
process.once('SIGINT', () => {
  void Promise.all([...runningTeardowns].map((teardown) => teardown())).finally(() =>
    process.exit(130),
  );
});

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
