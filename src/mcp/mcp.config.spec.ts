import { checkConfiguration } from '../config/configuration.check';
import { ConfigError } from '../config/env';
import { loadMcpConfig } from './mcp.config';

describe('loadMcpConfig', () => {
  it('serves the MCP endpoint by default, and not with MCP=off', () => {
    expect(loadMcpConfig({})).toEqual({ enabled: true });
    expect(loadMcpConfig({ MCP: 'on' })).toEqual({ enabled: true });
    expect(loadMcpConfig({ MCP: 'off' })).toEqual({ enabled: false });
  });

  it.each(['no', 'true', 'OFF '])('refuses MCP=%j at boot, with every other setting', (value) => {
    expect(() => loadMcpConfig({ MCP: value })).toThrow(ConfigError);
    expect(() => checkConfiguration({ MCP: value })).toThrow(/MCP/);
  });
});
