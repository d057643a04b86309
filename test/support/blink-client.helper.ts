/**
 * A blink client as Dialect's own code runs one: @dialectlabs/blinks-core 0.20.7 fetches,
 * parses and chains the blinks (BlinkInstance, its action components, unfurlUrlToBlinkApiUrl);
 * `execute` repeats the steps of its `BlinkContainer` (dist/index.cjs, "src/BlinkContainer.tsx":
 * component.post(account) → adapter.signTransaction → adapter.confirmTransaction →
 * blink.chain(links.next, {signature, account})), which live in a React hook Jest cannot run.
 * The adapter signs as Dialect's EVM adapter does: the answer's `transaction` deserialized
 * (viem's parseTransaction), filled, signed by the user and sent; its hash is the signature.
 */
import {
  type AbstractActionComponent,
  type BlinkAdapter,
  BlinkInstance,
  setProxyUrl,
} from '@dialectlabs/blinks-core';
import type { ActionPostResponse } from '@solana/actions-spec';
import type { HDAccount, TransactionReceipt } from 'viem';
import type { LocalChain } from '../../src/testing/chain-types';
import { signAndSend } from '../../src/testing/wallet';

// Dialect's client goes through its proxy (proxy.dial.to) by default; a test reaches no internet.
// Turning it off is announced with a warning, expected here.
jest.spyOn(console, 'warn').mockImplementationOnce(() => undefined);
setProxyUrl('');

/** One click of a blink as Dialect's client makes it: the POST's answer, what landed, what comes next. */
export interface BlinkStep {
  /** The action's POST answer (a transaction, or a post/completed step). */
  response: ActionPostResponse;
  /** The receipt of the signed transaction, when the answer was one. */
  receipt?: TransactionReceipt;
  /** The blink the client shows next (links.next), or null when the chain ends. */
  next: BlinkInstance | null;
}

/** A wallet on the local chain behind Dialect's adapter interface, for the `eip155:<id>` chain. */
export function localAdapter(
  chain: LocalChain,
  user: HDAccount,
): BlinkAdapter & {
  receipts: Map<string, TransactionReceipt>;
} {
  const receipts = new Map<string, TransactionReceipt>();
  return {
    receipts,
    metadata: { supportedBlockchainIds: [`eip155:${chain.chainId}`] },
    connect: () => Promise.resolve(user.address),
    signTransaction: async (tx) => {
      const { receipt } = await signAndSend(chain, user, tx);
      receipts.set(receipt.transactionHash, receipt);
      return { signature: receipt.transactionHash };
    },
    confirmTransaction: (signature) =>
      receipts.get(signature)?.status === 'success'
        ? Promise.resolve()
        : Promise.reject(new Error(`Transaction ${signature} reverted`)),
    signMessage: () => Promise.resolve({ error: 'No messages are signed here' }),
  };
}

/** One click on `component`, run as blinks-core's BlinkContainer runs it. */
export async function execute(
  blink: BlinkInstance,
  component: AbstractActionComponent,
  adapter: ReturnType<typeof localAdapter>,
): Promise<BlinkStep> {
  const account = await adapter.connect({} as never);
  if (!account) throw new Error('No wallet');
  const response = (await component.post(account)) as ActionPostResponse;
  let signature: string | undefined;
  if (response.type === 'transaction') {
    const signed = await adapter.signTransaction(response.transaction, {} as never);
    if ('error' in signed) throw new Error(signed.error);
    await adapter.confirmTransaction(signed.signature, {} as never);
    signature = signed.signature;
  }
  const next = response.links?.next
    ? await blink.chain(response.links.next, { account, signature })
    : null;
  return { response, receipt: signature ? adapter.receipts.get(signature) : undefined, next };
}

export { BlinkInstance };
