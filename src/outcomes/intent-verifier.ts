import { Inject, Injectable } from '@nestjs/common';
import {
  type Hash,
  type Transaction,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { ChainRegistry } from '../evm';
import type { TransactionIntent } from './outcome.types';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

/** What the chain says of an intent's reported hash, right now. */
export interface ChainVerdict {
  status: 'submitted' | 'confirmed' | 'reverted' | 'mismatch';
  blockNumber?: bigint;
}

/**
 * Reads a reported hash back from the intent's chain (through ChainRegistry's safe read: bounded
 * by EXTERNAL_TIMEOUT_MS, a failure is an RPC_ERROR that never names the node's URL) and judges it: the mined
 * transaction must be the intent's (same chain, sender = the user, same `to`, `data`, `value`;
 * nonce, gas and fees are the wallet's). A node failure throws: the caller keeps the intent
 * `submitted` and the watcher asks again.
 */
@Injectable()
export class IntentVerifier {
  constructor(
    private readonly chains: ChainRegistry,
    @Inject(OUTCOMES_CONFIG) private readonly config: OutcomesConfig,
  ) {}

  async verify(intent: TransactionIntent, hash: Hash): Promise<ChainVerdict> {
    const chain = this.chains.get(intent.chainId);
    // The chain left the configuration since the answer: nothing can be read, the TTL decides.
    if (!chain) return { status: 'submitted' };
    return this.chains.read(chain, 'a reported transaction', async (client) => {
      const [tx, receipt] = await Promise.all([
        client.getTransaction({ hash }).catch(notFound(TransactionNotFoundError)),
        client.getTransactionReceipt({ hash }).catch(notFound(TransactionReceiptNotFoundError)),
      ]);
      if (!tx) return { status: 'submitted' };
      if (!matches(intent, tx)) return { status: 'mismatch' };
      if (!receipt) return { status: 'submitted' };
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const blockNumber = receipt.blockNumber;
      if (head - blockNumber + 1n < BigInt(this.config.confirmations)) {
        return { status: 'submitted', blockNumber };
      }
      return { status: receipt.status === 'success' ? 'confirmed' : 'reverted', blockNumber };
    });
  }
}

/** A hash the node does not know (yet) is no failure: the wallet may not have broadcast it. */
function notFound(kind: new (...args: never[]) => Error): (error: unknown) => undefined {
  return (error) => {
    if (error instanceof kind) return undefined;
    throw error;
  };
}

const same = (a: string | null | undefined, b: string): boolean =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

function matches(intent: TransactionIntent, tx: Transaction): boolean {
  return (
    (tx.chainId === undefined || tx.chainId === intent.chainId) &&
    same(tx.from, intent.user) &&
    same(tx.to, intent.to) &&
    same(tx.input, intent.data) &&
    tx.value === BigInt(intent.value)
  );
}
