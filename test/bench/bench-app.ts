/**
 * Boots the production build the way src/main.ts does, for the bench's own entries (the 200
 * actions, the 1,000,000 rate-limit keys). Everything comes from dist/ (`require`, typed by the
 * sources) so those servers run the same compiled code as `node dist/main.js`; run-bench.ts
 * transpiles the entries into dist/bench/, from where `../../dist/…` still names dist/.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the compiled modules, not the sources */
import type * as BootstrapTs from '../../src/bootstrap';
import type * as HttpView from '../../src/http-esm-view';

// As main.ts: the compile cache first, then tracing (when configured) before what it instruments
// is loaded, then the application without Node's bundled undici.
require('../../dist/compile-cache');
require('../../dist/tracing');
const { withoutHttpUndiciGetters } = require('../../dist/http-esm-view') as typeof HttpView;
const { start } = withoutHttpUndiciGetters(
  () => require('../../dist/bootstrap') as typeof BootstrapTs,
);

export type BenchAppOptions = BootstrapTs.BootstrapOptions;

/** src/main.ts's start, with the app module's options and a hook before listening. */
export function runBenchApp(options: BenchAppOptions): void {
  start(options);
}
