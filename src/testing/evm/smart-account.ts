import {
  type Address,
  createTestClient,
  type Hash,
  type Hex,
  type HDAccount,
  http,
  parseEther,
  type TestClient,
  type TransactionReceipt,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { DEV_MNEMONIC, type LocalChain } from './local-chain';

/** One call a wallet makes: what an action answers and a smart wallet executes. */
export interface WalletCall {
  to: Address;
  value?: bigint;
  data?: Hex;
}

/** A deployed (or about to be) smart account that executes one call per mined transaction. */
export interface SmartAccount {
  address: Address;
  /** Resolves with the hash of the mined transaction that carried the call. */
  execute: (call: WalletCall) => Promise<Hash>;
}

/**
 * The mnemonic's account 9: bundler, relayer and funder of the smart-wallet kit. Test chains fund
 * accounts 0-4 only (users 1-4 of startTestChain), so the kit tops this one up itself and never
 * shares a nonce with a test's own senders.
 */
export const KIT_RELAYER_INDEX = 9;

/** Hardhat's cheat methods (setCode, setBalance) on the chain's node. */
export function testClient(chain: LocalChain): TestClient<'hardhat'> {
  return createTestClient({ mode: 'hardhat', chain: chain.chain, transport: http(chain.rpcUrl) });
}

/** The kit's relayer, given 10 000 of the native coin when it holds none. */
export async function kitRelayer(chain: LocalChain): Promise<HDAccount> {
  const relayer = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: KIT_RELAYER_INDEX });
  const balance = await chain.publicClient.getBalance({ address: relayer.address });
  if (balance === 0n) {
    await testClient(chain).setBalance({ address: relayer.address, value: parseEther('10000') });
  }
  return relayer;
}

/**
 * Waits for the receipt of a transaction the kit sent. The node automines, so the receipt is
 * there at once; a revert of the outer transaction is the kit's fault and throws.
 */
export async function minedReceipt(chain: LocalChain, hash: Hash): Promise<TransactionReceipt> {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`Transaction ${hash} reverted`);
  return receipt;
}

/** Bytes of code at an address: whether a counterfactual account exists yet. */
export async function hasCode(chain: LocalChain, address: Address): Promise<boolean> {
  const code = await chain.publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}
