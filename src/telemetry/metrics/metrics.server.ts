import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type MetricsListenerConfig,
  OBSERVABILITY_CONFIG,
  type ObservabilityConfig,
} from '../../config/observability.config';
import { ActionMetrics } from './action-metrics';

/** A scrape is one small request; anything slower is not a Prometheus server. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT, METRICS_HOST), apart from the public
 * port: what the service counts is for the operators' Prometheus, not for every client. Started by
 * main.ts once the service listens; closed with the application.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    private readonly metrics: ActionMetrics,
    @Inject(OBSERVABILITY_CONFIG) private readonly config: ObservabilityConfig,
  ) {}

  /** Listens where configured (tests pass port 0); undefined when METRICS_PORT=0. */
  async listen(
    where: MetricsListenerConfig | undefined = this.config.metrics,
  ): Promise<AddressInfo | undefined> {
    if (!where) return undefined;
    if (this.server) return this.server.address() as AddressInfo;
    this.metrics.collectProcessMetrics();
    const server = createServer((req, res) => void this.answer(req, res));
    server.requestTimeout = REQUEST_TIMEOUT_MS;
    server.headersTimeout = REQUEST_TIMEOUT_MS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(where.port, where.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const address = server.address() as AddressInfo;
    this.logger.log(`Metrics on http://${where.host}:${address.port}/metrics`);
    return address;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics') return plain(res, 404, 'Not found: metrics are at /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return plain(res, 405, 'Method not allowed\n');
    }
    try {
      const body = await this.metrics.registry.metrics();
      res.writeHead(200, {
        'content-type': this.metrics.registry.contentType,
        'content-length': Buffer.byteLength(body),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error(`Collecting metrics failed: ${(error as Error)?.message ?? error}`);
      plain(res, 500, 'Collecting metrics failed\n');
    }
  }
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
