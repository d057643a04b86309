import {
  SHIPPED_CHAIN_ID,
  startTestChain,
  type TestChain,
  type TestChainOptions,
} from '../../src/testing/evm/test-chain';

/** The chain every shipped action declares, on the port wallets expect of a local node. */
export const DEV_CHAIN_ID = SHIPPED_CHAIN_ID;
export const DEV_CHAIN_PORT = 8545;

export type DevChain = TestChain;

/** `npm run dev`'s chain: the one teams' e2e specs start, on 8545 unless told otherwise. */
export function startDevChain({
  chainId = DEV_CHAIN_ID,
  port = DEV_CHAIN_PORT,
}: TestChainOptions = {}): Promise<DevChain> {
  return startTestChain({ chainId, port });
}
