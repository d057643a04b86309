/**
 * `npm run check -- <base-url>`: checks a running deployment before it goes live, as the platform
 * would meet it. Prints one row per check; exits 1 when any fails, 2 on bad usage, else 0.
 * See docs/testing.md, "Before going live".
 */
import { parseOptions, USAGE, UsageError } from './check/options';
import { formatTable, summary } from './check/rows';
import { runCheck } from './check/run-check';

async function main(args: readonly string[]): Promise<number> {
  let options;
  try {
    options = parseOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`check: ${error.message}\n${USAGE}`);
    return 2;
  }
  const rows = await runCheck(options);
  console.log(formatTable(rows));
  console.log(summary(rows, options.baseUrl));
  return rows.some((row) => row.result === 'FAIL') ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`check: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
