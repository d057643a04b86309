/**
 * What observing one request costs, measured apart from the rest of the pipeline:
 * `npx ts-node --transpile-only test/bench/observability-cost.ts`. Records the metrics of a
 * request (in flight up and down, its counter and histogram) and writes its JSON access line to
 * a stream that drops it, as many times as asked, and prints the mean per request.
 */
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createRootLogger } from '../../src/telemetry/logging/root-logger';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '1000000' } } });
const requests = Number(values.requests);

function perRequest(label: string, run: (i: number) => void): void {
  for (let i = 0; i < 10_000; i++) run(i); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < requests; i++) run(i);
  const ns = Number(process.hrtime.bigint() - started) / requests;
  console.log(`${label.padEnd(44)} ${(ns / 1000).toFixed(2)} µs per request`);
}

async function main(): Promise<void> {
  const metrics = new ActionMetrics();
  const route = metrics.route('/api/calculator', 'data');
  perRequest('metrics (in flight, counter, histogram)', (i) => {
    metrics.requestStarted();
    route.record(i % 10 === 0 ? 400 : 200, 0.002 + (i % 7) / 1000);
    metrics.requestEnded();
  });
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const logger = await createRootLogger({ level: 'info', pretty: false, destination: sink });
  perRequest('access line (pino JSON, redaction check)', (i) =>
    logger.info(
      {
        reqId: '9be6a14c-4a6b-4e85-a2c5-6b235293f915',
        method: 'POST',
        route: '/api/calculator',
        mode: 'data',
        status: 200,
        durationMs: 1.234 + i / 1e9,
        bytes: 216,
        ip: '127.0.0.1',
      },
      'request completed',
    ),
  );
  console.log(`${requests} requests, Node ${process.version}`);
}

void main();
