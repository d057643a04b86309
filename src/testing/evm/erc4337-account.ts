import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  type Hash,
  type HDAccount,
  parseEther,
  parseEventLogs,
} from 'viem';
import {
  entryPoint07Abi,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction';
import { type Artifact, npmArtifact } from './contracts';
import { deployDeterministic } from './deterministic-deployer';
import type { LocalChain } from './local-chain';
import {
  hasCode,
  kitRelayer,
  minedReceipt,
  type SmartAccount,
  type WalletCall,
} from './smart-account';

/** ERC-4337 EntryPoint v0.7's address on every chain, which the service recognises it by. */
export const ENTRY_POINT_07_ADDRESS: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032';
/** The salt its deployment through the deterministic deployer used (eth-infinitism's deploy). */
const ENTRY_POINT_07_SALT = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3';

/**
 * @account-abstraction/contracts 0.7.0's own build: the EntryPoint's init code is byte for byte
 * the canonical deployment's (CREATE2 with its salt gives the canonical address), so it is
 * deployed, not copied: its SenderCreator immutable points at a SenderCreator it created itself.
 */
export const ERC4337_07 = {
  entryPoint: npmArtifact('@account-abstraction/contracts/artifacts/EntryPoint.json'),
  simpleAccount: npmArtifact('@account-abstraction/contracts/artifacts/SimpleAccount.json'),
  factory: npmArtifact('@account-abstraction/contracts/artifacts/SimpleAccountFactory.json'),
} satisfies Record<string, Artifact>;

/** Deploys EntryPoint v0.7 at its canonical address (once per chain) and returns it. */
export async function deployEntryPoint07(chain: LocalChain): Promise<Address> {
  const relayer = await kitRelayer(chain);
  const { entryPoint } = ERC4337_07;
  const address = await deployDeterministic(
    chain,
    relayer,
    entryPoint.bytecode,
    ENTRY_POINT_07_SALT,
  );
  if (address !== ENTRY_POINT_07_ADDRESS) throw new Error(`EntryPoint landed at ${address}`);
  return address;
}

/** SimpleAccountFactory v0.7 bound to the canonical EntryPoint, at one address per chain. */
export async function deploySimpleAccountFactory(chain: LocalChain): Promise<Address> {
  const entryPoint = await deployEntryPoint07(chain);
  const { factory } = ERC4337_07;
  const initCode = encodeDeployData({ ...factory, args: [entryPoint] });
  return deployDeterministic(chain, await kitRelayer(chain), initCode);
}

export interface Erc4337AccountOptions {
  /** SimpleAccountFactory's salt: another salt, another account of the same owner. */
  salt?: bigint;
  /** What the funder deposits on the EntryPoint for the account's gas (default 1 coin). */
  deposit?: bigint;
  /** The inner call's gas limit (default 1 000 000). */
  callGasLimit?: bigint;
}

/**
 * A SimpleAccount (v0.7) owned by `owner` that holds none of the native coin: the kit's relayer
 * deposits its gas on the EntryPoint (as a sponsoring paymaster would), bundles each UserOperation
 * alone in `handleOps` and is its beneficiary. The account is deployed by its first operation
 * (initCode through the EntryPoint's SenderCreator), so the first execute emits AccountDeployed.
 */
export async function erc4337Account(
  chain: LocalChain,
  owner: HDAccount,
  { salt = 0n, deposit = parseEther('1'), callGasLimit = 1_000_000n }: Erc4337AccountOptions = {},
): Promise<SmartAccount> {
  const { simpleAccount, factory: factoryArtifact } = ERC4337_07;
  const factory = await deploySimpleAccountFactory(chain);
  const bundler = await kitRelayer(chain);
  const bundlerWallet = chain.wallet(bundler);
  const address = getAddress(
    (await chain.publicClient.readContract({
      address: factory,
      abi: factoryArtifact.abi,
      functionName: 'getAddress',
      args: [owner.address, salt],
    })) as Address,
  );
  const deposited = await chain.publicClient.readContract({
    address: ENTRY_POINT_07_ADDRESS,
    abi: entryPoint07Abi,
    functionName: 'balanceOf',
    args: [address],
  });
  if (deposited === 0n) {
    await minedReceipt(
      chain,
      await bundlerWallet.writeContract({
        address: ENTRY_POINT_07_ADDRESS,
        abi: entryPoint07Abi,
        functionName: 'depositTo',
        args: [address],
        value: deposit,
      }),
    );
  }

  async function execute({ to, value = 0n, data = '0x' }: WalletCall): Promise<Hash> {
    const deployed = await hasCode(chain, address);
    const nonce = await chain.publicClient.readContract({
      address: ENTRY_POINT_07_ADDRESS,
      abi: entryPoint07Abi,
      functionName: 'getNonce',
      args: [address, 0n],
    });
    const fees = await chain.publicClient.estimateFeesPerGas();
    const operation: UserOperation<'0.7'> = {
      sender: address,
      nonce,
      ...(!deployed && {
        factory,
        factoryData: encodeFunctionData({
          abi: factoryArtifact.abi,
          functionName: 'createAccount',
          args: [owner.address, salt],
        }),
      }),
      callData: encodeFunctionData({
        abi: simpleAccount.abi,
        functionName: 'execute',
        args: [to, value, data],
      }),
      callGasLimit,
      verificationGasLimit: deployed ? 150_000n : 600_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      signature: '0x',
    };
    const userOpHash = getUserOperationHash({
      chainId: chain.chainId,
      entryPointAddress: ENTRY_POINT_07_ADDRESS,
      entryPointVersion: '0.7',
      userOperation: operation,
    });
    // SimpleAccount recovers the owner from the EIP-191 personal-message hash of userOpHash.
    const signature = await owner.signMessage({ message: { raw: userOpHash } });
    const hash = await bundlerWallet.writeContract({
      address: ENTRY_POINT_07_ADDRESS,
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation({ ...operation, signature })], bundler.address],
      // The limits bound what the EntryPoint spends; a fixed cover keeps estimation out of it.
      gas: operation.verificationGasLimit + callGasLimit + 400_000n,
    });
    const receipt = await minedReceipt(chain, hash);
    const events = parseEventLogs({
      abi: entryPoint07Abi,
      eventName: 'UserOperationEvent',
      logs: receipt.logs,
      args: { userOpHash },
    });
    if (events.length !== 1) throw new Error(`No UserOperationEvent for ${userOpHash} in ${hash}`);
    return hash;
  }

  return { address, execute };
}
