import { setTimeout as delay } from 'node:timers/promises';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type HDAccount,
  type Hash,
  http,
  isAddressEqual,
  type TransactionReceipt,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { transactionOutcome } from '../../src/client';
import type { TransactionIntentView } from '../../src/client/client.types';
import type { ExecutionResponse } from '../../src/contract/action.types';
import { DEV_MNEMONIC } from '../../src/testing/chain-types';
import { deserializeTransaction } from '../../src/testing/wallet';
import { UsageError } from './answer';

/** Statuses the follower has not settled yet. */
const OPEN = new Set(['answered', 'submitted']);
const STATUS_POLL_MS = 250;
/** Indexes searched for an address given with --account. */
const ACCOUNTS_SEARCHED = 20;

/** The dev account by index, or the one of the first indexes with that address. */
export function devAccount(wanted: number | Address): { account: HDAccount; index: number } {
  if (typeof wanted === 'number')
    return { account: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: wanted }), index: wanted };
  for (let index = 0; index < ACCOUNTS_SEARCHED; index++) {
    const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
    if (isAddressEqual(account.address, wanted)) return { account, index };
  }
  throw new UsageError(`--account ${wanted} is not an account of the dev mnemonic`);
}

/**
 * Signs the answer's transaction with the account, as a wallet does: nonce, gas and fees are
 * filled from the chain (viem's sendTransaction), after checking the node is the answer's chain.
 */
export async function signAndSendAnswer(
  answer: ExecutionResponse,
  account: HDAccount,
  rpcUrl: string,
): Promise<{ hash: Hash; receipt: Promise<TransactionReceipt> }> {
  const probe = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const nodeChain = await probe.getChainId().catch((error: unknown) => {
    throw new Error(
      `no chain answers at ${rpcUrl} (is npm run dev running? --rpc or DEV_CHAIN_PORT name ` +
        `another): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  });
  if (nodeChain !== answer.chainId)
    throw new Error(
      `the node at ${rpcUrl} is chain ${nodeChain}, the answer is for ${answer.chainId}`,
    );
  const chain = defineChain({
    id: answer.chainId,
    name: `Local chain ${answer.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  const tx = deserializeTransaction(answer.serializedTransaction);
  const wallet = createWalletClient({ account, chain, transport });
  const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value });
  const client = createPublicClient({ chain, transport, pollingInterval: 100 });
  return { hash, receipt: client.waitForTransactionReceipt({ hash }) };
}

/**
 * The intent as the service tells it (GET /api/transactions/<intent>), read again until the
 * follower settles it or `waitMs` passes; `onChange` hears each new status.
 */
export async function settledIntent(
  intent: string,
  serviceUrl: string,
  waitMs: number,
  onChange: (view: TransactionIntentView, message: string) => void,
): Promise<TransactionIntentView> {
  const deadline = Date.now() + waitMs;
  let last: string | undefined;
  for (;;) {
    const answer = await transactionOutcome(intent, { baseUrl: serviceUrl });
    if (!answer.success || !answer.data)
      throw new Error(
        `the service at ${serviceUrl} answered ${answer.statusCode} for intent ${intent}: ` +
          `${answer.error ?? ''} ${answer.message ?? ''}`.trim(),
      );
    const view = answer.data;
    if (view.status !== last) onChange(view, answer.message ?? '');
    last = view.status;
    if (!OPEN.has(view.status) || Date.now() >= deadline) return view;
    await delay(STATUS_POLL_MS);
  }
}
