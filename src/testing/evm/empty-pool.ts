import type { Address } from 'viem';
import { call, UNISWAP_V2 } from './contracts';
import { getPair } from './dex-fixture';
import type { DexFixture, LocalChain, Venue } from '../chain-types';

/**
 * A pair with no reserves at `venue`, for a test of what an action answers on an empty pool (404
 * NO_LIQUIDITY): none of the fixture's pools is empty, so the dev loop quotes every pair it lists.
 * `a`/`b` must not have a pair there yet.
 */
export async function createEmptyPool(
  chain: LocalChain,
  fixture: DexFixture,
  venue: Venue,
  [a, b]: readonly [Address, Address],
): Promise<Address> {
  await call(chain, chain.wallet(fixture.deployer), {
    address: venue.factory,
    abi: UNISWAP_V2.factory.abi,
    functionName: 'createPair',
    args: [a, b],
  });
  return getPair(chain, venue, a, b);
}
