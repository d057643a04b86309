import { type Address, type HDAccount, maxUint256, parseEther, parseUnits } from 'viem';
import {
  balanceOf,
  call,
  deploy,
  deployEip3009Token,
  deployToken,
  ERC20_ABI,
  UNISWAP_V2,
} from './contracts';
import type { DexFixture, LocalChain, Venue } from '../chain-types';

export type { DexFixture, Venue } from '../chain-types';

/**
 * Prices in USDC per wrapped coin: 20 at alpha (deeper), 25 at beta; and USDC/USDT at par at
 * alpha, deep enough that the dev loop's swaps between them barely move it. Every pool the chain
 * file lists has reserves: a test of an empty pool makes its own (createEmptyPool).
 */
export const LIQUIDITY = {
  alpha: { wrapped: parseEther('100'), usdc: parseUnits('2000', 6) },
  beta: { wrapped: parseEther('50'), usdc: parseUnits('1250', 6) },
  alphaStable: { usdc: parseUnits('100000', 6), usdt: parseUnits('100000', 6) },
};

/** The EIP-712 domain of the fixture's USDC, Fuji's: what an EIP-3009 authorization is signed under. */
export const USDC_DOMAIN = { name: 'USD Coin', version: '2' } as const;

async function deployVenue(
  chain: LocalChain,
  deployer: HDAccount,
  wrapped: Address,
): Promise<Venue> {
  const wallet = chain.wallet(deployer);
  const factory = await deploy(chain, wallet, UNISWAP_V2.factory, [deployer.address]);
  const router = await deploy(chain, wallet, UNISWAP_V2.router02, [factory, wrapped]);
  return { factory, router };
}

/** The pair of `a` and `b` at `venue`; the zero address when there is none. */
export async function getPair(
  chain: LocalChain,
  venue: Venue,
  a: Address,
  b: Address,
): Promise<Address> {
  return chain.publicClient.readContract({
    address: venue.factory,
    abi: UNISWAP_V2.factory.abi,
    functionName: 'getPair',
    args: [a, b],
  }) as Promise<Address>;
}

/**
 * Deploys the fixture from account 0 in a fixed order, so on a fresh chain every address is the
 * same each time (the default chain file's local chain lists them). Liquidity goes in through each
 * router's addLiquidity, which only succeeds when the router's init code hash matches the pair
 * bytecode of the factory: a mismatch fails here, not later in a test.
 */
export async function deployDexFixture(chain: LocalChain): Promise<DexFixture> {
  const deployer = chain.accounts[0];
  const wallet = chain.wallet(deployer);
  const wrapped = await deploy(chain, wallet, UNISWAP_V2.weth9);
  const supply = parseUnits('10000000', 6);
  // EIP-3009 capable, under the EIP-712 domain of Fuji's USDC (`USD Coin`, version 2): x402's
  // payments settle with it. Still the second deployment: its address stays the chain file's.
  const usdc = await deployEip3009Token(chain, wallet, {
    name: USDC_DOMAIN.name,
    symbol: 'USDC',
    decimals: 6,
    supply,
    version: USDC_DOMAIN.version,
  });
  const usdt = await deployToken(chain, wallet, {
    name: 'Tether USD',
    symbol: 'USDT',
    decimals: 6,
    supply,
  });
  const alpha = await deployVenue(chain, deployer, wrapped);
  const beta = await deployVenue(chain, deployer, wrapped);
  await call(chain, wallet, {
    address: wrapped,
    abi: ERC20_ABI,
    functionName: 'deposit',
    value: parseEther('150'),
  });
  /** Lets both routers take the deployer's wrapped coin, USDC and USDT, up to `amount`. */
  const approveRouters = async (amount: bigint): Promise<void> => {
    for (const token of [wrapped, usdc, usdt]) {
      for (const venue of [alpha, beta]) {
        await call(chain, wallet, {
          address: token,
          abi: ERC20_ABI,
          functionName: 'approve',
          args: [venue.router, amount],
        });
      }
    }
  };
  await approveRouters(maxUint256);
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
  for (const [venue, amounts] of [
    [alpha, LIQUIDITY.alpha],
    [beta, LIQUIDITY.beta],
  ] as const) {
    await call(chain, wallet, {
      address: venue.router,
      abi: UNISWAP_V2.router02.abi,
      functionName: 'addLiquidity',
      args: [wrapped, usdc, amounts.wrapped, amounts.usdc, 0n, 0n, deployer.address, deadline],
    });
  }
  // The pair's address comes from the factory and the two tokens (CREATE2), not from this order.
  const { usdc: stableUsdc, usdt: stableUsdt } = LIQUIDITY.alphaStable;
  await call(chain, wallet, {
    address: alpha.router,
    abi: UNISWAP_V2.router02.abi,
    functionName: 'addLiquidity',
    args: [usdc, usdt, stableUsdc, stableUsdt, 0n, 0n, deployer.address, deadline],
  });
  // The deployer is the samples' user: it keeps no allowance, as a fresh wallet has none.
  await approveRouters(0n);
  return {
    deployer,
    wrapped,
    usdc,
    usdt,
    venues: { alpha, beta },
    pools: {
      alphaWrappedUsdc: await getPair(chain, alpha, wrapped, usdc),
      betaWrappedUsdc: await getPair(chain, beta, wrapped, usdc),
      alphaUsdcUsdt: await getPair(chain, alpha, usdc, usdt),
    },
  };
}

/** Gives a user stablecoins from the deployer and wraps some of its own native coin. */
export async function fundUser(
  chain: LocalChain,
  fixture: DexFixture,
  user: HDAccount,
  { usdc = parseUnits('1000', 6), usdt = parseUnits('1000', 6), wrapped = parseEther('10') } = {},
): Promise<void> {
  const deployer = chain.wallet(fixture.deployer);
  await call(chain, deployer, {
    address: fixture.usdc,
    abi: ERC20_ABI,
    functionName: 'transfer',
    args: [user.address, usdc],
  });
  await call(chain, deployer, {
    address: fixture.usdt,
    abi: ERC20_ABI,
    functionName: 'transfer',
    args: [user.address, usdt],
  });
  await call(chain, chain.wallet(user), {
    address: fixture.wrapped,
    abi: ERC20_ABI,
    functionName: 'deposit',
    value: wrapped,
  });
  if ((await balanceOf(chain, fixture.wrapped, user.address)) < wrapped)
    throw new Error('wrap failed');
}

/** The fixture as one chain of a CHAIN_CONFIG_FILE, under the symbols a test chooses. */
export function fixtureChainEntry(
  fixture: DexFixture,
  {
    name,
    rpcUrl,
    native,
    wrapped,
  }: { name: string; rpcUrl: string; native: string; wrapped: string },
): Record<string, unknown> {
  return {
    name,
    rpcUrl,
    nativeCurrency: { symbol: native, decimals: 18 },
    tokens: {
      [wrapped]: { address: fixture.wrapped, decimals: 18 },
      USDC: { address: fixture.usdc, decimals: 6 },
      USDT: { address: fixture.usdt, decimals: 6 },
    },
    routers: { alpha: fixture.venues.alpha.router, beta: fixture.venues.beta.router },
    pools: [
      {
        name: `Alpha ${wrapped}/USDC`,
        address: fixture.pools.alphaWrappedUsdc,
        router: 'alpha',
        tokens: [wrapped, 'USDC'],
        feeBps: 30,
      },
      {
        name: `Beta ${wrapped}/USDC`,
        address: fixture.pools.betaWrappedUsdc,
        router: 'beta',
        tokens: [wrapped, 'USDC'],
        feeBps: 30,
      },
      {
        name: 'Alpha USDC/USDT',
        address: fixture.pools.alphaUsdcUsdt,
        router: 'alpha',
        tokens: ['USDC', 'USDT'],
        feeBps: 30,
      },
    ],
  };
}

export { writeChainFile } from '../chain-file';
