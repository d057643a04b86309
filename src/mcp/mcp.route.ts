import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { UPLOAD_CONFIG, type UploadConfig } from '../config/upload.config';
import { ActionException } from '../contract/action.exception';
import { ORIGIN_REFUSAL, originAllowed } from '../kit/origin.guard';
import { isUploadType } from '../kit/params';
import { UploadAdmission } from '../kit/uploads/upload-admission';
import { McpCalls } from './mcp-calls';
import { McpTools } from './mcp-tools';
import { mcpSdk } from './mcp-sdk';

/** Where the MCP endpoint answers (Streamable HTTP). */
export const MCP_PATH = '/mcp';

/** What the server says it is in `initialize`. */
const SERVER_INFO = { name: 'dynamic-actions', version: '1.0.0' };
const INSTRUCTIONS =
  'Each tool runs one action of this service. Data tools answer {data, message}. Transaction tools answer an unsigned transaction for the user to sign and send from their own wallet (the service never sends one), with an intent: transaction_status tells what became of it. Give `user` (the wallet address) wherever a tool asks for it.';

/**
 * CORS of the endpoint: the service's origins (ALLOWED_ORIGINS, as every route), and the headers
 * an MCP client sends and reads, which the actions' routes do not take (@fastify/cors reads a
 * route's `cors` over the service's rules).
 */
const MCP_CORS = {
  allowedHeaders:
    'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, x-request-id',
  exposedHeaders: 'Mcp-Session-Id, Mcp-Protocol-Version, x-request-id',
};

/** A JSON-RPC error answered before any message is read (no id to answer to). */
const rpcError = (code: number, message: string): object => ({
  jsonrpc: '2.0',
  error: { code, message },
  id: null,
});

/** A base64 text of `bytes` bytes, with room for the JSON-RPC message around it. */
const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;

/**
 * The MCP endpoint, stateless Streamable HTTP (each POST a whole exchange, answered as JSON: no
 * session to keep or share between replicas), registered on Fastify by this provider once Nest
 * has registered its own routes, as MethodNotAllowedRoutes registers its. Not a Nest controller:
 * the transport decides the answer's status and headers (200, 202 for a notification, its own
 * 4xx), which a controller could only write through `@Res()`. The SDK's web-standard transport
 * takes a Request and gives a Response, which this route copies onto Fastify's reply, so the
 * service's hooks (request id, access line, metrics, CORS, the host check) see a plain answer.
 */
@Injectable()
export class McpRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly tools: McpTools,
    private readonly calls: McpCalls,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(UPLOAD_CONFIG) private readonly uploads: UploadConfig,
    private readonly admission: UploadAdmission,
  ) {}

  /**
   * The body bound: BODY_LIMIT_BYTES, as every JSON route; with an action that takes files, also
   * room for the largest upload (UPLOAD_MAX_BYTES) in base64, which the upload's route then
   * judges by the same limits as a multipart upload.
   */
  get bodyLimit(): number {
    const files = this.tools
      .actions()
      .some(({ params }) => params.some((p) => isUploadType(p.type)));
    return this.config.bodyLimitBytes + (files ? base64Length(this.uploads.maxBytes) : 0);
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const config = { cors: MCP_CORS };
    fastify.route({
      method: 'POST',
      url: MCP_PATH,
      bodyLimit: this.bodyLimit,
      config,
      onRequest: (req, reply, done) => this.admit(req, reply, done),
      handler: (req, reply) => this.serve(req, reply),
    });
    // Stateless: no stream to open (GET) and no session to end (DELETE), as the spec allows.
    fastify.route({
      method: ['GET', 'DELETE'],
      url: MCP_PATH,
      config,
      handler: (_req, reply) =>
        reply
          .code(405)
          .header('allow', 'POST, OPTIONS')
          .send(rpcError(-32000, 'Method not allowed: POST a JSON-RPC message')),
    });
    // Preflights are answered by the CORS hook; this route gives them the endpoint's rules.
    fastify.route({
      method: 'OPTIONS',
      url: MCP_PATH,
      config,
      handler: (_req, reply) => reply.code(204).send(),
    });
  }

  /**
   * A body that may pass BODY_LIMIT_BYTES carries a file in base64: it is admitted as an upload
   * is, before it is read (UPLOAD_MAX_INFLIGHT_BYTES for its declared length, UPLOAD_MAX_PER_CLIENT),
   * and held until its answer is sent, so what the endpoint holds in memory stays within the
   * uploads' bounds. Its tool call then reaches the upload's route, which admits it again.
   */
  private admit(req: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    const header = req.headers['content-length'];
    const declared = header === undefined ? undefined : Number(header);
    const small = declared !== undefined && declared <= this.config.bodyLimitBytes;
    // Over the bound it is a 413 (Fastify's, as it reads the head), never admitted.
    const over = declared !== undefined && declared > this.bodyLimit;
    if (small || over || this.bodyLimit === this.config.bodyLimitBytes) return done();
    let release: () => void;
    try {
      release = this.admission.admit(req.ip, declared).release;
    } catch (error) {
      if (!(error instanceof ActionException)) throw error;
      const words = error.details.message ?? error.error;
      void reply.code(error.getStatus()).send(rpcError(-32000, words));
      return;
    }
    reply.raw.once('finish', release).once('close', release);
    done();
  }

  private async serve(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // The Streamable HTTP spec asks servers to check Origin (DNS rebinding): the service's rule.
    if (!originAllowed(this.config, req.headers.origin)) {
      return reply.code(ORIGIN_REFUSAL.status).send(rpcError(-32000, ORIGIN_REFUSAL.message));
    }
    const sdk = mcpSdk();
    const server = new sdk.server.Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      // One validator for every request: the SDK would build an Ajv per server, that is per request.
      jsonSchemaValidator: this.tools.validator,
    });
    server.setRequestHandler(sdk.types.ListToolsRequestSchema, () => ({ tools: this.tools.tools }));
    server.setRequestHandler(sdk.types.CallToolRequestSchema, ({ params }) =>
      this.calls.call(req, params.name, params.arguments),
    );
    const transport = new sdk.transport.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(req), { parsedBody: req.body });
      const body = await response.text();
      void reply.code(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      return await reply.send(body === '' ? undefined : body);
    } finally {
      await server.close();
    }
  }
}

/** The request as the transport reads it: its headers (the body is Fastify's, already parsed). */
function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  // The URL is not read (the Host was checked by the service's hook already).
  return new Request(`http://localhost${MCP_PATH}`, {
    method: req.method,
    headers,
  });
}
