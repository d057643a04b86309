import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNftStorageConfig } from '../nft-storage.config';
import { contentIdOf } from './content-id';
import { LocalDirectoryStore } from './local-directory.store';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const ID = contentIdOf(PNG, 'image/png');

function store(): { store: LocalDirectoryStore; dir: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'nft-store-')), 'files');
  return { store: new LocalDirectoryStore(loadNftStorageConfig({ NFT_STORAGE_DIR: dir })), dir };
}

// The behaviour both stores share is tested in test/storage/content-stores.e2e-spec.ts.
describe('LocalDirectoryStore', () => {
  it('writes <dir>/<id> and a pending mark, creating the directory on the first write', async () => {
    const { store: files, dir } = store();
    await files.put(ID, PNG, 'image/png');
    expect(readFileSync(join(dir, ID))).toEqual(PNG);
    expect(readdirSync(join(dir, 'pending'))).toEqual([ID]);
    await files.keep(ID);
    expect(readdirSync(join(dir, 'pending'))).toEqual([]);
    expect(files.uri(ID, 'https://actions.example')).toBe(`https://actions.example/nft/${ID}`);
  });

  it('stores the same bytes once when written at the same time', async () => {
    const { store: files, dir } = store();
    await Promise.all([1, 2, 3].map(() => files.put(ID, PNG, 'image/png')));
    expect(readdirSync(dir).sort()).toEqual([ID, 'pending']);
  });

  it('leaves no partial file when a write fails half-way', async () => {
    const { store: files, dir } = store();
    await files.put(ID, PNG, 'image/png');
    const other = Buffer.from('other');
    const rename = jest.spyOn(fsPromises, 'rename').mockRejectedValueOnce(new Error('disk full'));
    try {
      await expect(files.put(contentIdOf(other, 'image/gif'), other, 'image/gif')).rejects.toThrow(
        'disk full',
      );
    } finally {
      rename.mockRestore();
    }
    expect(readdirSync(dir).filter((name) => name !== 'pending')).toEqual([ID]);
  });

  it('measures only its items, not marks or partial files', async () => {
    const { store: files } = store();
    expect(await files.measure()).toBe(0);
    await files.put(ID, PNG, 'image/png');
    expect(await files.measure()).toBe(PNG.length);
  });

  it('keeps owner marks apart from items, and sweeps old ones with their emptied directory', async () => {
    const { store: files, dir } = store();
    const owner = '0x52908400098527886e0f7030069857d2e4169ee7';
    await files.markOwner(owner, ID);
    expect((await files.ownerMarks(owner)).map((mark) => mark.id)).toEqual([ID]);
    expect(await files.measure()).toBe(0);
    await expect(files.markOwner('../../etc', ID)).rejects.toThrow('lower-case address');
    await expect(files.markOwner(owner.toUpperCase(), ID)).rejects.toThrow('lower-case address');
    await expect(files.markOwner(owner, '../passwd')).rejects.toThrow('content id');
    await files.sweep(new Date(Date.now() + 60_000));
    expect(await files.ownerMarks(owner)).toEqual([]);
    expect(readdirSync(join(dir, 'pending-by'))).toEqual([]);
    await files.markOwner(owner, ID);
    await files.unmarkOwner(owner, ID);
    expect(await files.ownerMarks(owner)).toEqual([]);
  });
});
