/**
 * The shapes of the local chain teams' specs use, in a file of their own: the testing entry (built
 * with the service) names them without reaching Hardhat or solc, which src/testing/evm loads.
 */
import type { Address, Chain, HDAccount, PublicClient, Transport, WalletClient } from 'viem';

/** Hardhat's well-known development mnemonic: the local chain's accounts, each funded. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export type LocalWallet = WalletClient<Transport, Chain, HDAccount>;

/** The local EVM node: its JSON-RPC URL, chain, funded accounts, clients, and how to stop it. */
export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  chain: Chain;
  /** Funded accounts with their private keys (HD path m/44'/60'/0'/0/i of DEV_MNEMONIC). */
  accounts: HDAccount[];
  publicClient: PublicClient<Transport, Chain>;
  /** A wallet client that signs locally with the account's key. */
  wallet: (account: HDAccount) => LocalWallet;
  stop: () => Promise<void>;
}

export interface Venue {
  factory: Address;
  router: Address;
}

/** Two Uniswap V2 venues with the same pair at different prices, and a pool with no liquidity. */
export interface DexFixture {
  deployer: HDAccount;
  /** WETH9: the wrapped native coin. */
  wrapped: Address;
  usdc: Address;
  usdt: Address;
  venues: { alpha: Venue; beta: Venue };
  pools: { alphaWrappedUsdc: Address; betaWrappedUsdc: Address; alphaUsdcUsdt: Address };
}

/** What startTestChain starts: the chain id it passes for and its port. */
export interface TestChainOptions {
  /** The id the local chain answers with and is listed under (default 43113, Avalanche Fuji). */
  chainId?: number;
  /** 0 (a free port) by default; `npm run dev` takes 8545, what wallets expect of a local node. */
  port?: number;
}

/**
 * A local chain with what the shipped actions use deployed, and the chain file listing it: what
 * `npm run dev` runs on, and what a team's e2e spec starts (`startTestChain` of src/testing).
 */
export interface TestChain {
  /** The node: `rpcUrl`, `publicClient` (read the chain in a test), `accounts`, `stop`. */
  chain: LocalChain;
  /**
   * The contracts deployed on it, by name: `usdc`, `usdt` and `wrapped` (WAVAX) token addresses,
   * the two Uniswap V2 `venues` (`factory`, `router`) and their `pools`, and the `deployer`
   * (account 0). The chain file lists them too, so `ChainRegistry.token(chain, 'USDC', …)` in the
   * service and `testChain.fixture.usdc` in the spec are the same contract.
   */
  fixture: DexFixture;
  /** The ERC-721 collection mint-nft mints on. */
  nftCollection: Address;
  /**
   * Accounts 1 to 4 of the development mnemonic: each holds 10 000 of the native coin, 1 000 USDC,
   * 1 000 USDT and 10 of the wrapped coin. Account 0 deployed the contracts.
   */
  users: HDAccount[];
  /** A chain file listing the local chain with the contracts just deployed (a temporary path). */
  chainFile: string;
  /** What the service needs on top of the caller's environment. */
  env: Record<string, string>;
  stop: () => Promise<void>;
}
