/**
 * The load generator, run in its own process (pinned to its own core by run-bench.ts):
 * autocannon against one URL, printing one JSON line with the figures and a per-second count.
 */
import autocannon from 'autocannon';
import type { EventEmitter } from 'node:events';

export interface LoadResult {
  rps: number;
  /** Requests answered in the whole run. */
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Of the errors: requests unanswered within autocannon's timeout (10 s). */
  timeouts: number;
  /** Of the errors, by code (ECONNRESET...), or by message without one (`request timed out`). */
  errorCodes: Record<string, number>;
  /**
   * Connections that got no answer in the whole run: a server that has not accepted them yet
   * (how the 2,000-connection timeouts were found: docs/performance.md).
   */
  unanswered: number;
  perSecond: number[];
}

interface LoadArgs {
  url: string;
  connections: number;
  duration: number;
  body: string;
  headers: Record<string, string>;
}

function run({ url, connections, duration, body, headers }: LoadArgs): Promise<LoadResult> {
  const perSecond: number[] = [];
  const errorCodes: Record<string, number> = {};
  let current = 0;
  const answeredBy: boolean[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        method: 'POST',
        headers,
        body,
        setupClient: (client: EventEmitter) => {
          const index = answeredBy.push(false) - 1;
          client.once('response', () => (answeredBy[index] = true));
        },
      },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        resolve({
          rps: result.requests.average,
          total: result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          errorCodes,
          unanswered: answeredBy.filter((answered) => !answered).length,
          perSecond,
        });
      },
    );
    instance.on('response', () => current++);
    instance.on('reqError', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    });
    instance.on('tick', () => {
      perSecond.push(current);
      current = 0;
    });
  });
}

run(JSON.parse(process.argv[2]) as LoadArgs).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
