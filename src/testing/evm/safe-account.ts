import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hash,
  type Hex,
  type HDAccount,
  keccak256,
  parseAbi,
  parseEventLogs,
  zeroAddress,
} from 'viem';
import { type Artifact, npmArtifact } from './contracts';
import { deployDeterministic } from './deterministic-deployer';
import type { LocalChain } from './local-chain';
import { kitRelayer, minedReceipt, type SmartAccount, type WalletCall } from './smart-account';

const BUILD = '@safe-global/safe-smart-account/build/artifacts/contracts';

/** Safe 1.5.0 as its npm package ships it built: the singleton and its proxy factory. */
export const SAFE_150 = {
  safe: npmArtifact(`${BUILD}/Safe.sol/Safe.json`),
  proxyFactory: npmArtifact(`${BUILD}/proxies/SafeProxyFactory.sol/SafeProxyFactory.json`),
} satisfies Record<string, Artifact>;

/**
 * Safe's outcome events, typed for parseEventLogs: each execTransaction emits exactly one
 * (payment is the refund paid, 0 here). The Safe's own ABI (SAFE_150.safe.abi) has them too.
 */
export const SAFE_EXECUTION_ABI = parseAbi([
  'event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)',
  'event ExecutionFailure(bytes32 indexed txHash, uint256 payment)',
]);

export interface SafeExecuteOptions {
  /**
   * Safe's own gas for the inner call. 0 (what Safe{Wallet} sends) makes a failing inner call
   * revert the whole transaction; any other value lets it be mined with ExecutionFailure.
   */
  safeTxGas?: bigint;
}

export interface SafeAccount extends SmartAccount {
  execute: (call: WalletCall, options?: SafeExecuteOptions) => Promise<Hash>;
}

export interface SafeAccountOptions {
  /** Who sends execTransaction (any funded EOA may): the kit's relayer unless given. */
  sender?: HDAccount;
  /** The proxy factory's salt nonce: another nonce, another Safe of the same owner. */
  saltNonce?: bigint;
}

/** The singleton and the proxy factory, each at one CREATE2 address per chain. */
async function deploySafeContracts(
  chain: LocalChain,
): Promise<{ singleton: Address; factory: Address }> {
  const relayer = await kitRelayer(chain);
  const singleton = await deployDeterministic(chain, relayer, SAFE_150.safe.bytecode);
  const factory = await deployDeterministic(chain, relayer, SAFE_150.proxyFactory.bytecode);
  return { singleton, factory };
}

/** Where createProxyWithNonce puts the proxy: CREATE2 as SafeProxyFactory 1.5.0 computes it. */
async function proxyAddress(
  chain: LocalChain,
  factory: Address,
  singleton: Address,
  initializer: Hex,
  saltNonce: bigint,
): Promise<Address> {
  const creationCode = (await chain.publicClient.readContract({
    address: factory,
    abi: SAFE_150.proxyFactory.abi,
    functionName: 'proxyCreationCode',
  })) as Hex;
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: keccak256(encodePacked(['bytes32', 'uint256'], [keccak256(initializer), saltNonce])),
    bytecode: concat([creationCode, encodeAbiParameters([{ type: 'address' }], [singleton])]),
  });
}

/**
 * A 1-of-1 Safe 1.5.0 (a SafeProxy of the Safe singleton, no fallback handler) owned by `owner`,
 * deployed on the first call for this owner and salt nonce. Each execute is one execTransaction
 * (a CALL, no refund) carrying the owner's ECDSA signature of the EIP-712 safeTxHash.
 */
export async function safeAccount(
  chain: LocalChain,
  owner: HDAccount,
  { sender, saltNonce = 0n }: SafeAccountOptions = {},
): Promise<SafeAccount> {
  const { singleton, factory } = await deploySafeContracts(chain);
  const relayer = sender ?? (await kitRelayer(chain));
  const wallet = chain.wallet(relayer);
  const { abi } = SAFE_150.safe;
  const initializer = encodeFunctionData({
    abi,
    functionName: 'setup',
    args: [[owner.address], 1n, zeroAddress, '0x', zeroAddress, zeroAddress, 0n, zeroAddress],
  });
  const address = await proxyAddress(chain, factory, singleton, initializer, saltNonce);
  const code = await chain.publicClient.getCode({ address });
  if (code === undefined || code === '0x') {
    const hash = await wallet.writeContract({
      address: factory,
      abi: SAFE_150.proxyFactory.abi,
      functionName: 'createProxyWithNonce',
      args: [singleton, initializer, saltNonce],
    });
    await minedReceipt(chain, hash);
  }

  async function execute(
    { to, value = 0n, data = '0x' }: WalletCall,
    { safeTxGas = 0n }: SafeExecuteOptions = {},
  ): Promise<Hash> {
    const nonce = await chain.publicClient.readContract({ address, abi, functionName: 'nonce' });
    // operation CALL (0); baseGas, gasPrice, gasToken and refundReceiver zero: no refund.
    const fields = [to, value, data, 0, safeTxGas, 0n, 0n, zeroAddress, zeroAddress] as const;
    const safeTxHash = (await chain.publicClient.readContract({
      address,
      abi,
      functionName: 'getTransactionHash',
      args: [...fields, nonce],
    })) as Hash;
    // v 27/28: Safe checks it as a plain ECDSA signature of safeTxHash by an owner.
    const signature = await owner.sign({ hash: safeTxHash });
    const hash = await wallet.writeContract({
      address,
      abi,
      functionName: 'execTransaction',
      args: [...fields, signature],
      // With safeTxGas set, Hardhat's estimate of a failing call asks for more than Osaka's
      // per-transaction cap (2^24) and errors; Safe's own bound (GS010) plus a margin is enough.
      ...(safeTxGas > 0n && { gas: (safeTxGas * 64n) / 63n + 150_000n }),
    });
    const receipt = await minedReceipt(chain, hash);
    const outcomes = parseEventLogs({ abi: SAFE_EXECUTION_ABI, logs: receipt.logs });
    if (outcomes.length !== 1) throw new Error(`execTransaction ${hash} emitted no outcome`);
    return hash;
  }

  return { address, execute };
}
