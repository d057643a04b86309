import {
  type Address,
  BaseError,
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  type Hex,
  hashMessage,
  hexToBigInt,
  isAddressEqual,
  isErc6492Signature,
  type PublicClient,
  recoverAddress,
  size,
} from 'viem';
import { rpcFailureKind } from '../evm/chains/chain-rpc';

/**
 * Whether an EOA signed: a 65-byte signature whose recovered signer is the address. Recovered
 * here, with no call to any node: a stranger's random signature costs the node nothing.
 */
export async function signedByKey(
  address: Address,
  message: string,
  signature: Hex,
): Promise<boolean> {
  if (size(signature) !== 65 || isErc6492Signature(signature)) return false;
  try {
    return isAddressEqual(await recoverAddress({ hash: hashMessage(message), signature }), address);
  } catch {
    // Not a point on the curve, an `s` out of range: no key signed this.
    return false;
  }
}

/**
 * Whether a contract wallet signed, asked of the chain in one `eth_call` capped at `gas`: the
 * ERC-6492 validator (viem's, deployed in the call itself, deploying nothing) simulates an
 * undeployed wallet's factory call when the signature carries one, then asks the wallet's
 * ERC-1271 `isValidSignature`. The cap makes a factory that loops end out of gas in
 * milliseconds, a revert read as "not signed"; a node that fails rethrows (RPC_ERROR).
 */
export async function signedByContract(
  client: PublicClient,
  {
    address,
    message,
    signature,
    gas,
  }: { address: Address; message: string; signature: Hex; gas: bigint },
): Promise<boolean> {
  try {
    const { data } = await client.call({
      data: encodeDeployData({
        abi: erc6492SignatureValidatorAbi,
        bytecode: erc6492SignatureValidatorByteCode,
        args: [address, hashMessage(message), signature],
      }),
      gas,
    });
    // A byte (or a word) that is 1: anything else (empty, another value) proves nothing.
    return data !== undefined && [1, 32].includes(size(data)) && hexToBigInt(data) === 1n;
  } catch (error) {
    if (rpcFailureKind(error) === 'reverted' || outOfGas(error)) return false;
    throw error;
  }
}

/** A node that reports the call's own gas running out (Hardhat's words, geth's) rather than a revert. */
const outOfGas = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((e) => /out of gas/i.test(String((e as Error).message))) !== null;
