import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as OTLP/JSON carries it, its attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's numbering: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  scope: string;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpJson {
  resourceSpans?: {
    scopeSpans?: {
      scope?: { name?: string };
      spans?: (Omit<ReceivedSpan, 'attributes' | 'scope'> & {
        attributes?: { key: string; value: AnyValue }[];
      })[];
    }[];
  }[];
}

const plain = (value: AnyValue): unknown =>
  value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);

/**
 * An OpenTelemetry collector's OTLP/HTTP trace receiver (JSON encoding) on 127.0.0.1, port from
 * listen(0): what the service exports when OTEL_EXPORTER_OTLP_ENDPOINT points at it.
 */
export class OtlpReceiver {
  /** Every span received, oldest first, attributes flattened to plain values. */
  readonly spans: ReceivedSpan[] = [];
  /**
   * `METHOD path content-type` of each export request, so a test checks the exporter's endpoint and
   * encoding.
   */
  readonly paths: string[] = [];
  private readonly events = new EventEmitter();

  private constructor(private readonly server: Server) {}

  /** Listens on 127.0.0.1 on a free port (listen(0)); gzip-encoded exports are read too. */
  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        receiver.paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        receiver.add(JSON.parse(body.toString('utf8')) as OtlpJson);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  /** The base URL to set as OTEL_EXPORTER_OTLP_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves with what `find` finds in the spans received so far, once it finds something. */
  async waitFor<T>(find: (spans: ReceivedSpan[]) => T | undefined): Promise<T> {
    for (;;) {
      const found = find(this.spans);
      if (found !== undefined) return found;
      await once(this.events, 'spans');
    }
  }

  /** Closes every connection, then the server. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private add(export_: OtlpJson): void {
    for (const resource of export_.resourceSpans ?? []) {
      for (const scopeSpans of resource.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          const attributes = Object.fromEntries(
            (span.attributes ?? []).map(({ key, value }) => [key, plain(value)]),
          );
          this.spans.push({ ...span, attributes, scope: scopeSpans.scope?.name ?? '' });
        }
      }
    }
    this.events.emit('spans');
  }
}
