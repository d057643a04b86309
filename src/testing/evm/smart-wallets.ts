import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  type HDAccount,
  serializeErc6492Signature,
} from 'viem';
import { type Artifact, deploy } from './contracts';
import type { LocalChain } from './local-chain';
import { compileWithOpenZeppelin } from './oz-compile';

/** SmartWallets.sol's contracts (an ERC-1271 wallet and its CREATE2 factory), compiled once. */
function artifacts(): Record<'OwnedWallet' | 'WalletFactory' | 'GasBurner', Artifact> {
  return compileWithOpenZeppelin(
    'SmartWallets.sol',
    ['OwnedWallet', 'WalletFactory', 'GasBurner'],
    'cancun',
  );
}

/** A deployed ERC-1271 wallet owned by `owner`: its signatures are the owner's. */
export async function deploySmartWallet(chain: LocalChain, owner: HDAccount): Promise<Address> {
  const wallet = chain.wallet(chain.accounts[0]);
  return getAddress(await deploy(chain, wallet, artifacts().OwnedWallet, [owner.address]));
}

/** A wallet not deployed yet (ERC-6492): its address, and how to sign as it. */
export interface CounterfactualWallet {
  factory: Address;
  address: Address;
  /** The owner's signature of a message, wrapped with the factory call that deploys the wallet. */
  signMessage: (message: string) => Promise<Hex>;
}

/** Deploys the factory only: the wallet at `address` exists on no chain until someone deploys it. */
export async function counterfactualWallet(
  chain: LocalChain,
  owner: HDAccount,
  salt: Hex = `0x${'00'.repeat(31)}01`,
): Promise<CounterfactualWallet> {
  const { WalletFactory } = artifacts();
  const factory = await deploy(chain, chain.wallet(chain.accounts[0]), WalletFactory);
  const address = (await chain.publicClient.readContract({
    address: factory,
    abi: WalletFactory.abi,
    functionName: 'addressOf',
    args: [owner.address, salt],
  })) as Address;
  const factoryData = encodeFunctionData({
    abi: WalletFactory.abi,
    functionName: 'deploy',
    args: [owner.address, salt],
  });
  return {
    factory,
    address,
    signMessage: async (message) =>
      serializeErc6492Signature({
        address: factory,
        data: factoryData,
        signature: await owner.signMessage({ message }),
      }),
  };
}

/**
 * A signer whose ERC-6492 signatures name a factory that burns all the gas it gets (GasBurner):
 * what a stranger sends to make a sign-in check as costly as the node allows. `address` is any
 * undeployed address; the signature never proves it.
 */
export async function gasBurningSigner(
  chain: LocalChain,
  owner: HDAccount,
): Promise<(message: string) => Promise<Hex>> {
  const { GasBurner } = artifacts();
  const burner = await deploy(chain, chain.wallet(chain.accounts[0]), GasBurner);
  const data = encodeFunctionData({ abi: GasBurner.abi, functionName: 'deploy' });
  return async (message) =>
    serializeErc6492Signature({
      address: burner,
      data,
      signature: await owner.signMessage({ message }),
    });
}
