import { Injectable } from '@nestjs/common';
import { OnTransactionOutcome, type TransactionOutcome } from '../../outcomes';
import { mintNftAction } from './mint-nft.action';
import { NftStorage } from './storage/nft-storage.service';

/**
 * What the mint's outcome means for its files: an upload stays pending (and is swept after
 * NFT_PENDING_TTL_S) until the mint that names it is confirmed, then it is kept for good. A
 * reverted, mismatched or expired mint leaves it pending, so the sweeper removes it.
 */
@Injectable()
export class MintNftOutcomes {
  constructor(private readonly storage: NftStorage) {}

  /** Throws when the store fails, so the hook is retried (OUTCOME_HOOK_ATTEMPTS). */
  @OnTransactionOutcome(mintNftAction, 'confirmed')
  async keep(outcome: TransactionOutcome): Promise<void> {
    // The intent's user is who uploaded: the upload stops counting against their pending cap.
    await this.storage.keepMintCall(outcome.intent.data, outcome.intent.user);
  }
}
