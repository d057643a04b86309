/**
 * The long fuzz run: `npm run fuzz -- --runs 100000` (runs per action), with a progress line.
 * Same property as test/fuzz.e2e-spec.ts, outside Jest so it can run for as long as asked.
 */
import { parseArgs } from 'node:util';
import { fuzzAction } from './fuzz.properties';
import { startFuzzTarget } from './fuzz.setup';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '10000' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive whole number');
  const { app, targets } = await startFuzzTarget();
  const started = Date.now();
  let total = 0;
  try {
    for (const target of targets) {
      let done = 0;
      await fuzzAction(app, target, runs, () => {
        done++;
        total++;
        if (done % 1000 === 0 || done === runs) {
          process.stdout.write(
            `\r${target.action.path}: ${done}/${runs} runs, ${total} requests in ${((Date.now() - started) / 1000).toFixed(0)} s   `,
          );
        }
      });
      process.stdout.write('\n');
    }
    console.log(`fuzz: ${total} requests over ${targets.length} actions, no property violated`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(`\nfuzz: FAILED\n${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
