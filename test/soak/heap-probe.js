// Preloaded into the soak's server (`node --expose-gc -r ./test/soak/heap-probe.js dist/main.js`):
// on SIGUSR2, collect garbage and print memory, so readings show what is live, not what the
// collector has not reclaimed yet. Not part of the production build.
'use strict';

process.on('SIGUSR2', () => {
  global.gc();
  const { rss, heapUsed } = process.memoryUsage();
  process.stdout.write(`heap-probe ${JSON.stringify({ rss, heapUsed })}\n`);
});
