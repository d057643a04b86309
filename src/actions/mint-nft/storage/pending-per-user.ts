import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../../../kit';
import type { NftStorageConfig } from '../nft-storage.config';
import type { ContentStore, OwnerMark } from './content-store';
import type { StoreGuard } from './store-guard';

/**
 * How long an owner mark counts even when its upload is not (yet) pending: the mark is written
 * before the files, so a younger one may be a write in progress, not a kept upload.
 */
const WRITE_GRACE_MS = 60_000;

/**
 * NFT_PENDING_MAX_PER_USER: the uploads one user has pending (answered, mint not confirmed),
 * counted from owner marks in the store itself, so replicas sharing a bucket count together.
 * A mark counts until its upload is kept (the keep hook removes it, and one whose upload is no
 * longer pending is dropped when the count reaches the cap) or NFT_PENDING_TTL_S passes (the
 * sweeper deletes it with the upload).
 */
export class PendingPerUser {
  constructor(
    private readonly store: ContentStore,
    private readonly config: Pick<NftStorageConfig, 'pendingMaxPerUser' | 'pendingTtlMs'>,
    private readonly guard: StoreGuard,
  ) {}

  /** Refuses (429) a user with the cap's number of other pending uploads; writes nothing. */
  async admit(owner: string, id: string): Promise<void> {
    if ((await this.others(owner, id)) >= this.config.pendingMaxPerUser) throw this.refusal();
  }

  /**
   * Marks `id` as the owner's pending upload, then counts again: requests of one user that
   * passed `admit` together (on any replica) and would take them past the cap are refused and
   * unmarked, rather than let through.
   */
  async claim(owner: string, id: string): Promise<void> {
    await this.guard.run('write', () => this.store.markOwner(owner, id));
    if ((await this.others(owner, id)) < this.config.pendingMaxPerUser) return;
    await this.guard.run('write', () => this.store.unmarkOwner(owner, id));
    throw this.refusal();
  }

  /** The upload is kept (its mint confirmed): it no longer counts. */
  release(owner: string, id: string): Promise<void> {
    return this.guard.run('write', () => this.store.unmarkOwner(owner, id));
  }

  /** The owner's live pending uploads but `id`, dropping marks left by kept uploads at the cap. */
  private async others(owner: string, id: string): Promise<number> {
    const now = Date.now();
    const marks = await this.guard.run('read', () => this.store.ownerMarks(owner));
    const live = marks.filter(
      (mark) => mark.id !== id && mark.markedAt.getTime() >= now - this.config.pendingTtlMs,
    );
    if (live.length < this.config.pendingMaxPerUser) return live.length;
    const counted = await Promise.all(live.map((mark) => this.counts(owner, mark, now)));
    return counted.filter(Boolean).length;
  }

  /** Whether a mark still counts; one whose upload was kept (or swept) is removed. */
  private async counts(owner: string, mark: OwnerMark, now: number): Promise<boolean> {
    if (now - mark.markedAt.getTime() < WRITE_GRACE_MS) return true;
    if (await this.guard.run('read', () => this.store.isPending(mark.id))) return true;
    await this.guard.run('write', () => this.store.unmarkOwner(owner, mark.id));
    return false;
  }

  private refusal(): ActionException {
    const cap = this.config.pendingMaxPerUser;
    return new ActionException(HttpStatus.TOO_MANY_REQUESTS, 'Too many NFT uploads pending', {
      message: `You have ${cap} NFT uploads waiting for their mint: send one of those mints, or wait until they expire`,
      code: 'TOO_MANY_PENDING_UPLOADS',
      data: { pendingMaxPerUser: cap },
    });
  }
}
