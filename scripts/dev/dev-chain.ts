import {
  SHIPPED_CHAIN_ID,
  startTestChain,
  type TestChain,
  type TestChainOptions,
} from '../../src/testing/evm/test-chain';
import { DEV_CHAIN_PORT } from './dev-ports';

/** The chain every shipped action declares, on the port wallets expect of a local node. */
export const DEV_CHAIN_ID = SHIPPED_CHAIN_ID;
export { DEV_CHAIN_PORT };

export type DevChain = TestChain;

/** `npm run dev`'s chain: the one teams' e2e specs start, on 8545 unless told otherwise. */
export function startDevChain({
  chainId = DEV_CHAIN_ID,
  port = DEV_CHAIN_PORT,
}: TestChainOptions = {}): Promise<DevChain> {
  return startTestChain({ chainId, port });
}

/**
 * The one line a port already taken deserves, naming the variable that moves it; undefined for
 * any other error. PORT and METRICS_PORT are the service's own (src/listening-line.ts).
 */
export function portInUseMessage(error: unknown): string | undefined {
  const { code, port } = (error ?? {}) as { code?: string; port?: number };
  if (code !== 'EADDRINUSE') return undefined;
  return (
    `the chain's port ${port ?? ''} is already in use (another npm run dev?): stop what holds it, ` +
    'or set DEV_CHAIN_PORT to another port (0: a free one)'
  );
}
