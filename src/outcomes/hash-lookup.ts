import { HttpStatus, Injectable } from '@nestjs/common';
import { type Hash, type Transaction, TransactionNotFoundError } from 'viem';
import { ChainRegistry } from '../evm';
import { ChainRpc } from '../evm/chains/chain-rpc';
import { predates, type Seen, sightingOf } from './intent-match';
import type { TransactionIntent } from './outcome.types';

/**
 * A reported hash, as the chain knows it now: unknown to the node, not the intent's, the intent's
 * call but sent before it was answered (`early`: an untagged intent's older twin), or its call.
 */
export type Lookup =
  | { kind: 'unknown' }
  | { kind: 'foreign' }
  | { kind: 'early' }
  | { kind: 'seen'; seen: Seen; tx: Transaction };

/**
 * The one look at the chain a report costs: the transaction by its hash, from the intent's chain
 * (bounded by EXTERNAL_TIMEOUT_MS; a failing node is a 503 that never names its URL). Whether it
 * is mined yet, and how it ended, is the follower's to see.
 */
@Injectable()
export class HashLookup {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly rpc: ChainRpc,
  ) {}

  async lookup(intent: TransactionIntent, hash: Hash): Promise<Lookup> {
    const chain = this.chains.get(intent.chainId);
    // The chain left the configuration since the answer: nothing can be read, the TTL decides.
    if (!chain) return { kind: 'unknown' };
    let tx: Transaction;
    try {
      tx = await this.rpc.client(chain).getTransaction({ hash });
    } catch (error) {
      // A hash the node does not know is no failure: the wallet may not have broadcast it yet.
      if (error instanceof TransactionNotFoundError) return { kind: 'unknown' };
      throw this.rpc.failure(
        chain,
        'a reported transaction',
        error,
        HttpStatus.SERVICE_UNAVAILABLE,
      );
    }
    const seen = sightingOf(intent, tx);
    if (seen) return { kind: 'seen', seen, tx };
    return !intent.tagged &&
      predates(intent, tx) &&
      sightingOf({ ...intent, nonce: undefined, answeredBlock: undefined }, tx)
      ? { kind: 'early' }
      : { kind: 'foreign' };
  }
}
