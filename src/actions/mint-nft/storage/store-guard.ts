import { HttpStatus, type Logger } from '@nestjs/common';
import { ActionException, limitLog, logText } from '../../../kit';

/**
 * Runs the store's operations for NftStorage: a failure (disk full, bucket unreachable) is
 * logged once a minute under a key of the operation alone and answered as a 503.
 */
export class StoreGuard {
  constructor(private readonly logger: Logger) {}

  async run<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.logFailure(operation, error);
      throw new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'NFT storage is unavailable', {
        message: 'NFT storage is unavailable, please try again later',
        code: 'STORAGE_UNAVAILABLE',
      });
    }
  }

  logFailure(operation: string, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    // The key names the operation, never the error's text: that may hold a random file name.
    limitLog(this.logger).error(
      `nft-store-${operation}`,
      `NFT store ${operation} failed: ${logText(text)}`,
      error instanceof Error ? error.stack : undefined,
    );
  }
}
