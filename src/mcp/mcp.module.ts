import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../config/env';
import { BlinkDispatch } from '../blinks/blink-dispatch';
import { McpCalls } from './mcp-calls';
import { McpOpenApi } from './mcp-openapi';
import { MCP_CONFIG, loadMcpConfig } from './mcp.config';
import { McpRoute } from './mcp.route';
import { McpTools } from './mcp-tools';

/**
 * Every action as an MCP tool on `POST /mcp` (docs/agents.md): the tools built from the
 * declarations, each call run through the action's own route. With MCP=off, none of it: no
 * route (404), only the setting.
 */
@Module({})
export class McpModule {
  static forRoot(env: Env): DynamicModule {
    const mcp = loadMcpConfig(env);
    const config = { provide: MCP_CONFIG, useValue: mcp };
    if (!mcp.enabled) return { module: McpModule, providers: [config], exports: [MCP_CONFIG] };
    return {
      module: McpModule,
      // The blinks' dispatch, the service's one way of running its own routes in-process: its
      // own instance here, since the blinks' module holds none with BLINKS=off.
      // McpOpenApi: found by OpenApiDocument's discovery (src/publishing), /mcp documented.
      providers: [config, McpTools, McpCalls, McpRoute, BlinkDispatch, McpOpenApi],
      exports: [MCP_CONFIG, McpTools],
    };
  }
}
