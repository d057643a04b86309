import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  type Hash,
  type Hex,
  type HDAccount,
} from 'viem';
import type { Artifact } from './contracts';
import { deployDeterministic } from './deterministic-deployer';
import type { LocalChain } from './local-chain';
import { compileWithOpenZeppelin } from './oz-compile';
import { kitRelayer, minedReceipt, type SmartAccount, type WalletCall } from './smart-account';

/** ERC-7821's single batch mode: call type 0x01 (batch), revert on any failure, no opData. */
export const ERC7821_BATCH_MODE: Hex = `0x01${'00'.repeat(31)}`;

/** ERC-7821's executionData for that mode: abi.encode(Call[]) with Call(target, value, data). */
const CALLS = [
  {
    type: 'tuple[]',
    components: [
      { name: 'target', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'callData', type: 'bytes' },
    ],
  },
] as const;

/** BatchDelegate.sol (OpenZeppelin's ERC7821), compiled once and cached by oz-compile. */
export function batchDelegateArtifact(): Artifact {
  return compileWithOpenZeppelin('BatchDelegate.sol', ['BatchDelegate'], 'cancun').BatchDelegate;
}

/** The delegate at one CREATE2 address per chain. */
export async function deployBatchDelegate(chain: LocalChain): Promise<Address> {
  return deployDeterministic(chain, await kitRelayer(chain), batchDelegateArtifact().bytecode);
}

/** The calldata of `execute(mode, executionData)` for a batch, what the EOA sends itself. */
export function encodeBatch(calls: readonly WalletCall[]): Hex {
  const executionData = encodeAbiParameters(CALLS, [
    calls.map(({ to, value = 0n, data = '0x' }) => ({ target: to, value, callData: data })),
  ]);
  return encodeFunctionData({
    abi: batchDelegateArtifact().abi,
    functionName: 'execute',
    args: [ERC7821_BATCH_MODE, executionData],
  });
}

export interface Eip7702BatchOptions {
  /** Bytes appended to the outer transaction's calldata (EIP-5792's dataSuffix capability). */
  dataSuffix?: Hex;
}

export interface Eip7702Account extends SmartAccount {
  /** The EOA's own address: the account is the EOA, delegated. */
  address: Address;
  delegate: Address;
  /** One transaction from the EOA to itself running every call in order, all or none. */
  executeBatch: (calls: readonly WalletCall[], options?: Eip7702BatchOptions) => Promise<Hash>;
}

/** The code of an EOA delegated with EIP-7702: 0xef0100 followed by the delegate's address. */
export function delegationCode(delegate: Address): Hex {
  return concat(['0xef0100', delegate]).toLowerCase() as Hex;
}

/**
 * `owner`'s EOA delegated to BatchDelegate. The first batch is a type-4 transaction carrying
 * the owner's authorization (signed for nonce + 1, as the sender is the authority); later ones
 * are plain transactions to the owner's address while the delegation holds. The owner pays its
 * own gas: it must hold the native coin.
 */
export async function eip7702Account(chain: LocalChain, owner: HDAccount): Promise<Eip7702Account> {
  const delegate = await deployBatchDelegate(chain);
  const wallet = chain.wallet(owner);

  async function executeBatch(
    calls: readonly WalletCall[],
    { dataSuffix }: Eip7702BatchOptions = {},
  ): Promise<Hash> {
    const batch = encodeBatch(calls);
    const data = dataSuffix ? concat([batch, dataSuffix]) : batch;
    const code = await chain.publicClient.getCode({ address: owner.address });
    const delegated = code?.toLowerCase() === delegationCode(delegate);
    const authorizationList = delegated
      ? undefined
      : [await wallet.signAuthorization({ contractAddress: delegate, executor: 'self' })];
    const hash = await wallet.sendTransaction({ to: owner.address, data, authorizationList });
    await minedReceipt(chain, hash);
    return hash;
  }

  return {
    address: owner.address,
    delegate,
    executeBatch,
    execute: (call) => executeBatch([call]),
  };
}
