/**
 * Boots the production build the way src/main.ts does, for the bench's own entries (the 200
 * actions, the 1,000,000 rate-limit keys). Everything comes from dist/ (`require`, typed by the
 * sources) so those servers run the same compiled code as `node dist/main.js`; run-bench.ts
 * transpiles the entries into dist/bench/, from where `../../dist/…` still names dist/.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the compiled modules, not the sources */
import type * as BootstrapTs from '../../src/bootstrap';

// First, as in main.ts: tracing, when configured, starts before what it instruments is loaded.
require('../../dist/tracing');
const { start } = require('../../dist/bootstrap') as typeof BootstrapTs;

export type BenchAppOptions = BootstrapTs.BootstrapOptions;

/** src/main.ts's start, with the app module's options and a hook before listening. */
export function runBenchApp(options: BenchAppOptions): void {
  start(options);
}
