/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Server from '@modelcontextprotocol/sdk/server/index.js';
import type * as Transport from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type * as Types from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK a request to /mcp runs on. */
export interface McpSdk {
  server: typeof Server;
  transport: typeof Transport;
  types: typeof Types;
}

let loaded: McpSdk | undefined;

/**
 * The MCP SDK's server, loaded with the first request to /mcp: with zod, on which its protocol
 * types are built, it is a large share of what a boot would load for an endpoint many services
 * are never asked (docs/performance.md, Boot). The tools' schemas are still compiled at boot
 * (McpTools: Ajv only), so a declared dataSchema that is no schema still stops the boot.
 */
export const mcpSdk = (): McpSdk =>
  (loaded ??= {
    server: require('@modelcontextprotocol/sdk/server/index.js') as typeof Server,
    transport:
      require('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js') as typeof Transport,
    types: require('@modelcontextprotocol/sdk/types.js') as typeof Types,
  });
