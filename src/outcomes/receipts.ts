import { Injectable } from '@nestjs/common';
import { type Hash, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem';
import { ChainRegistry } from '../evm';
import { ChainRpc } from '../evm/chains/chain-rpc';

/**
 * The receipt of a transaction seen for an intent, once it is deep enough to settle: undefined
 * when the chain (or the node) no longer knows it, a failing node's error otherwise (the pass is
 * tried again).
 */
@Injectable()
export class Receipts {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly rpc: ChainRpc,
  ) {}

  async of(chainId: number, hash: Hash): Promise<TransactionReceipt | undefined> {
    const chain = this.chains.get(chainId);
    if (!chain) return undefined;
    try {
      return await this.rpc.client(chain).getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw this.rpc.failure(chain, 'a seen transaction', error);
    }
  }
}
