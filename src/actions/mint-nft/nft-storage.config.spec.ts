import { resolve } from 'node:path';
import { loadNftStorageConfig } from './nft-storage.config';

describe('NFT storage configuration', () => {
  it('resolves NFT_STORAGE_DIR from the working directory, ./nft-storage by default', () => {
    expect(loadNftStorageConfig({})).toEqual({ dir: resolve('nft-storage') });
    expect(loadNftStorageConfig({ NFT_STORAGE_DIR: '/srv/nft' })).toEqual({ dir: '/srv/nft' });
  });
});
