import { IsIn, IsOptional } from '../config/validator-subset';
import { registerConfigCheck } from '../config/configuration.check';
import { type Env, readEnv } from '../config/env';

/** Injection token of the MCP endpoint's settings (McpModule provides it, on or off). */
export const MCP_CONFIG = Symbol('MCP_CONFIG');

class McpEnv {
  /** `off`: no `/mcp` route is registered (404; OpenAPI lists none); the actions' own routes are unchanged. */
  @IsOptional()
  @IsIn(['on', 'off'])
  MCP = 'on';
}

export interface McpConfig {
  enabled: boolean;
}

export function loadMcpConfig(env: Env): McpConfig {
  const vars = readEnv(McpEnv, env, 'MCP configuration');
  return { enabled: vars.MCP === 'on' };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadMcpConfig);
