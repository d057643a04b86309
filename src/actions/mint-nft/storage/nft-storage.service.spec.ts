import { Logger } from '@nestjs/common';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData } from 'viem';
import { refusal } from '../../../testing/action-refusal';
import { ERC721_SAFE_MINT } from '../erc721-mint.abi';
import { loadNftStorageConfig } from '../nft-storage.config';
import { LocalDirectoryStore } from './local-directory.store';
import { type NftUpload, NftStorage } from './nft-storage.service';

const BASE = 'https://actions.example';
const DAY = 86_400_000;
const TO = '0x52908400098527886E0F7030069857D2E4169EE7';

function storage(env: Record<string, string> = {}): { nft: NftStorage; dir: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'nft-storage-')), 'store');
  const config = loadNftStorageConfig({ NFT_STORAGE_DIR: dir, ...env });
  return { nft: new NftStorage(new LocalDirectoryStore(config), config), dir };
}

/** What the action stores for one mint: an image, then metadata naming it. */
async function upload(nft: NftStorage, tag: string): Promise<{ image: string; uri: string }> {
  const image = await nft.put(Buffer.from(`image ${tag}`), 'image/png');
  const metadata = { name: tag, description: '', image: nft.uri(image, BASE) };
  const id = await nft.put(Buffer.from(JSON.stringify(metadata)), 'application/json');
  return { image, uri: nft.uri(id, BASE) };
}

const stored = (dir: string): string[] =>
  readdirSync(dir).filter((name) => !name.startsWith('pending') && !name.startsWith('.'));

const USER = TO;
const OTHER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

/** An upload of the user's, named and not yet written. */
function named(nft: NftStorage, tag: string, owner = USER): NftUpload {
  const image = nft.file(Buffer.from(`image ${tag}`), 'image/png');
  const metadata = { name: tag, description: '', image: nft.uri(image.id, BASE) };
  return {
    owner,
    image,
    metadata: nft.file(Buffer.from(JSON.stringify(metadata)), 'application/json'),
  };
}

async function saved(nft: NftStorage, tag: string): Promise<NftUpload> {
  const upload = named(nft, tag);
  await nft.admit(upload);
  await nft.save(upload);
  return upload;
}

const code = async (run: () => Promise<unknown>): Promise<[number, string?]> => {
  const error = await refusal(run);
  return [error.getStatus(), error.details.code];
};

describe('NftStorage', () => {
  it('refuses with 507 STORAGE_FULL past NFT_STORAGE_MAX_BYTES, storing nothing', async () => {
    const { nft, dir } = storage({ NFT_STORAGE_MAX_BYTES: '20' });
    const id = await nft.put(Buffer.alloc(15, 1), 'image/png');
    const error = await refusal(() => nft.put(Buffer.alloc(15, 2), 'image/png'));
    expect([error.getStatus(), error.error, error.details.code]).toEqual([
      507,
      'NFT storage is full',
      'STORAGE_FULL',
    ]);
    expect(stored(dir)).toEqual([id]);
    // Bytes it has already cost nothing more.
    expect(await nft.put(Buffer.alloc(15, 1), 'image/png')).toBe(id);
  });

  it('frees the space of swept uploads for new ones', async () => {
    const { nft } = storage({ NFT_STORAGE_MAX_BYTES: '20' });
    await nft.put(Buffer.alloc(15, 1), 'image/png');
    await nft.sweep(Date.now() + 2 * DAY);
    await expect(nft.put(Buffer.alloc(15, 2), 'image/png')).resolves.toMatch(/\.png$/);
  });

  it('keeps a minted upload (metadata and image) and sweeps the unminted past the TTL', async () => {
    const { nft, dir } = storage();
    const minted = await upload(nft, 'minted');
    const unminted = await upload(nft, 'unminted');
    expect(await nft.keepMinted(minted.uri)).toBe(true);
    expect(await nft.sweep(Date.now() + DAY / 2)).toEqual([]);
    const swept = await nft.sweep(Date.now() + 2 * DAY);
    expect(swept.sort()).toEqual([unminted.image, unminted.uri.split('/').pop()].sort());
    expect(stored(dir).sort()).toEqual([minted.image, minted.uri.split('/').pop()].sort());
  });

  it('keeps the upload a confirmed mint call names, from its calldata', async () => {
    const { nft, dir } = storage();
    const { uri } = await upload(nft, 'call');
    const data = encodeFunctionData({ abi: [ERC721_SAFE_MINT], args: [TO, uri] });
    expect(await nft.keepMintCall(data)).toBe(true);
    await nft.sweep(Date.now() + 2 * DAY);
    expect(stored(dir)).toHaveLength(2);
  });

  it('keeps nothing for URIs that are not its metadata', async () => {
    const { nft } = storage();
    const { image } = await upload(nft, 'x');
    for (const uri of [
      nft.uri(image, BASE),
      `${BASE}/nft/${'0'.repeat(64)}.json`,
      'not a uri',
      `${BASE}/nft/../../etc/passwd`,
    ])
      expect(await nft.keepMinted(uri)).toBe(false);
    expect(await nft.keepMintCall('0x1234')).toBe(false);
  });

  it('answers 503 on a store failure and logs it once a minute under one key', async () => {
    const { nft, dir } = storage();
    await nft.put(Buffer.from('first'), 'image/png');
    // A directory where the pending marks go: every write fails, with a path in its text.
    const { rmSync, writeFileSync } = await import('node:fs');
    rmSync(join(dir, 'pending'), { recursive: true });
    writeFileSync(join(dir, 'pending'), 'not a directory');
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      for (const n of [1, 2, 3]) {
        const refused = await refusal(() => nft.put(Buffer.from(`upload ${n}`), 'image/png'));
        expect([refused.getStatus(), refused.details.code]).toEqual([503, 'STORAGE_UNAVAILABLE']);
      }
      expect(error).toHaveBeenCalledTimes(1);
      expect(error.mock.calls[0][0]).toMatch(/^NFT store write failed: /);
    } finally {
      error.mockRestore();
    }
  });

  describe('NFT_PENDING_MAX_PER_USER', () => {
    const capped = (): { nft: NftStorage; dir: string } =>
      storage({ NFT_PENDING_MAX_PER_USER: '2' });

    it('admits without writing, and refuses the upload past the cap with 429', async () => {
      const { nft, dir } = capped();
      await nft.admit(named(nft, 'a'));
      expect(existsSync(dir)).toBe(false);
      await saved(nft, 'a');
      await saved(nft, 'b');
      const before = stored(dir).sort();
      expect(await code(() => nft.admit(named(nft, 'c')))).toEqual([
        429,
        'TOO_MANY_PENDING_UPLOADS',
      ]);
      expect(await code(() => nft.save(named(nft, 'c')))).toEqual([
        429,
        'TOO_MANY_PENDING_UPLOADS',
      ]);
      expect(stored(dir).sort()).toEqual(before);
      // An upload already pending adds nothing; another user counts apart.
      await expect(nft.admit(named(nft, 'b'))).resolves.toBeUndefined();
      await expect(saved(nft, 'b')).resolves.toBeDefined();
      await expect(nft.admit(named(nft, 'c', OTHER))).resolves.toBeUndefined();
    });

    it('counts an upload no more once its mint is kept, or once swept', async () => {
      const { nft } = capped();
      const a = await saved(nft, 'a');
      await saved(nft, 'b');
      expect(await nft.keepMintCall(mintCall(nft, a), USER.toLowerCase())).toBe(true);
      await saved(nft, 'c');
      await nft.sweep(Date.now() + 2 * DAY);
      await saved(nft, 'd');
      await expect(saved(nft, 'e')).resolves.toBeDefined();
    });

    it('drops, at the cap, the marks of uploads kept without their owner', async () => {
      const { nft } = capped();
      const a = await saved(nft, 'a');
      await saved(nft, 'b');
      expect(await nft.keepMinted(nft.uri(a.metadata.id, BASE))).toBe(true);
      // A younger mark may be a write in progress: it counts for a minute.
      expect(await code(() => nft.admit(named(nft, 'c')))).toEqual([
        429,
        'TOO_MANY_PENDING_UPLOADS',
      ]);
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 120_000);
      try {
        await expect(saved(nft, 'c')).resolves.toBeDefined();
        expect(await code(() => nft.admit(named(nft, 'd')))).toEqual([
          429,
          'TOO_MANY_PENDING_UPLOADS',
        ]);
      } finally {
        clock.mockRestore();
      }
    });

    it('lets no racing uploads of one user past the cap', async () => {
      const { nft, dir } = capped();
      await saved(nft, 'a');
      const racing = ['b', 'c', 'd'].map((tag) => named(nft, tag));
      for (const upload of racing) await nft.admit(upload);
      await Promise.allSettled(racing.map((upload) => nft.save(upload)));
      expect(readdirSync(join(dir, 'pending-by', USER.toLowerCase())).length).toBeLessThanOrEqual(
        2,
      );
    });
  });
});

function mintCall(nft: NftStorage, upload: NftUpload): `0x${string}` {
  return encodeFunctionData({
    abi: [ERC721_SAFE_MINT],
    args: [TO, nft.uri(upload.metadata.id, BASE)],
  });
}
