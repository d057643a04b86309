import { ChainRegistry } from '../evm/chains/chain-registry';
import { loadConfig } from '../config/app.config';
import { type ChainsConfig, loadChainsConfig } from '../evm/chains/chains.config';
import type { Env } from '../config/env';
import { loadExternalConfig } from '../config/external.config';
import { UpstreamBounds } from '../outbound/http/upstream-bounds';
import { ChainRpc } from '../evm/chains/chain-rpc';

export interface ChainsUnderTest<R extends ChainRpc> {
  config: ChainsConfig;
  rpc: R;
  registry: ChainRegistry;
}

type RpcClass<R extends ChainRpc> = new (config: ChainsConfig, bounds: UpstreamBounds) => R;

/**
 * The chain registry as the application builds it (NODE_ENV=test unless the env says otherwise),
 * over a ChainRpc of the test's choosing (a fake node, or the real client).
 */
export function chainsUnderTest<R extends ChainRpc = ChainRpc>(
  env: Env = {},
  Rpc: RpcClass<R> = ChainRpc as unknown as RpcClass<R>,
): ChainsUnderTest<R> {
  const full = { NODE_ENV: 'test', ...env };
  const config = loadChainsConfig(full);
  const rpc = new Rpc(config, new UpstreamBounds(loadExternalConfig(full)));
  return { config, rpc, registry: new ChainRegistry(config, loadConfig(full), rpc) };
}
