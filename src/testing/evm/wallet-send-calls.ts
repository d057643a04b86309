import {
  type Address,
  type Hash,
  type Hex,
  type HDAccount,
  hexToBigInt,
  http,
  isAddressEqual,
  numberToHex,
} from 'viem';
import { eip7702Account, type Eip7702Account } from './eip7702-account';
import type { LocalChain } from './local-chain';

/** What an EIP-1193 provider is asked: viem's `custom(provider)` transport sends these. */
export interface Eip1193Request {
  method: string;
  params?: unknown;
}

export interface Eip5792Wallet {
  request: (request: Eip1193Request) => Promise<unknown>;
  account: Eip7702Account;
}

/** wallet_sendCalls' first parameter (EIP-5792 version 2.0.0), as far as this wallet reads it. */
interface SendCallsRequest {
  id?: string;
  from?: Address;
  chainId: Hex;
  calls: { to: Address; data?: Hex; value?: Hex }[];
  capabilities?: { dataSuffix?: { value: Hex } };
}

/** An EIP-1193 error: viem turns code 4100, 4200 and 5710 into its typed RPC errors. */
class ProviderError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A small in-process wallet for `owner` speaking EIP-5792: wallet_sendCalls runs the whole bundle
 * as ONE EIP-7702 batch transaction (eip7702Account's executeBatch, so atomic), and
 * wallet_getCallsStatus answers with that transaction's receipt. Every other method goes to the
 * chain's node, so viem's sendCalls and waitForCallsStatus work over `custom(wallet)`.
 */
export async function eip5792Wallet(chain: LocalChain, owner: HDAccount): Promise<Eip5792Wallet> {
  const account = await eip7702Account(chain, owner);
  const node = http(chain.rpcUrl)({ chain: chain.chain, retryCount: 0 });
  const chainId = numberToHex(chain.chainId);
  /** Bundle id to the hash of the transaction that carried it. */
  const bundles = new Map<string, Hash>();

  async function sendCalls(request: SendCallsRequest): Promise<{ id: string }> {
    if (request.from && !isAddressEqual(request.from, owner.address)) {
      throw new ProviderError(4100, `this wallet holds ${owner.address} only`);
    }
    if (request.chainId.toLowerCase() !== chainId) {
      throw new ProviderError(5710, `this wallet is on chain ${chainId} only`);
    }
    const calls = request.calls.map(({ to, data, value }) => ({
      to,
      data,
      value: value === undefined ? undefined : hexToBigInt(value),
    }));
    const hash = await account.executeBatch(calls, {
      dataSuffix: request.capabilities?.dataSuffix?.value,
    });
    const id = request.id ?? hash;
    bundles.set(id, hash);
    return { id };
  }

  async function callsStatus(id: string): Promise<object> {
    const hash = bundles.get(id);
    if (!hash) throw new ProviderError(5730, `unknown bundle ${id}`);
    // The node's own receipt (hex fields), which getCallsStatus' callers expect.
    const receipt = await chain.publicClient.request({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    });
    // 100 pending, 200 confirmed, 500 reverted on chain (the batch is all or nothing).
    const status = !receipt ? 100 : receipt.status === '0x1' ? 200 : 500;
    return {
      version: '2.0.0',
      id,
      chainId,
      atomic: true,
      status,
      receipts: receipt ? [receipt] : [],
    };
  }

  async function request({ method, params }: Eip1193Request): Promise<unknown> {
    const args = (params ?? []) as unknown[];
    switch (method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [owner.address];
      case 'wallet_sendCalls':
        return sendCalls(args[0] as SendCallsRequest);
      case 'wallet_getCallsStatus':
        return callsStatus(args[0] as string);
      case 'wallet_getCapabilities':
        return { [chainId]: { atomic: { status: 'supported' }, dataSuffix: { supported: true } } };
      default:
        return node.request({ method, params: args });
    }
  }

  return { request, account };
}
