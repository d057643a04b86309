// @ts-check
/**
 * Jest's Node environment, and one change to the worker processes it runs in. When jest-worker
 * ends a worker it removes its IPC listener and waits up to 500 ms for the process to leave on
 * its own; on a busy machine Node's teardown (freeing the heap and native addons, Hardhat's EDR
 * among them) took longer than that even with nothing left open, and Jest printed "A worker
 * process has failed to exit gracefully" (issue 46). So once the worker is told to end and
 * nothing but its standard streams and IPC pipe is open (no timer, socket, server or child
 * process), it exits at once, 'exit' listeners run, without that teardown. A worker with
 * anything else still open is left to Jest, which force-exits and reports it as before:
 * `--detectOpenHandles` then names the leak.
 */
const { TestEnvironment } = require('jest-environment-node');

/** What a worker holds when nothing leaked: its stdin, stdout, stderr and IPC pipes. */
const STREAMS = new Set(['PipeWrap', 'TTYWrap']);

/** In a worker process (forked with an IPC channel), not in Jest's own (--runInBand). */
if (process.send !== undefined && process.env.JEST_WORKER_ID !== undefined) {
  process.on('removeListener', (event) => {
    // jest-worker's end: its only 'message' listener removed.
    if (event !== 'message' || process.listenerCount('message') > 0) return;
    setImmediate(() => {
      const open = process.getActiveResourcesInfo().filter((type) => !STREAMS.has(type));
      if (open.length === 0) process.exit();
      // Jest will force this one out: say what kept it, for --detectOpenHandles to find.
      process.stderr.write(
        `Jest worker ${process.env.JEST_WORKER_ID} ended with ${open.join(', ')} open\n`,
      );
    });
  });
}

module.exports = TestEnvironment;
