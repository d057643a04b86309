import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDirectoryStore } from './local-directory.store';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

function store(): { store: LocalDirectoryStore; dir: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'nft-store-')), 'files');
  return { store: new LocalDirectoryStore({ dir }), dir };
}

describe('LocalDirectoryStore', () => {
  it('names bytes by their SHA-256, creating the directory on the first write', async () => {
    const { store: files, dir } = store();
    const id = await files.put(PNG, 'image/png');
    expect(id).toBe(`${sha256(PNG)}.png`);
    expect(readFileSync(join(dir, id))).toEqual(PNG);
    expect(await files.get(id)).toEqual({ bytes: PNG, mimeType: 'image/png' });
    expect(files.uri(id, 'https://actions.example')).toBe(`https://actions.example/nft/${id}`);
  });

  it('stores the same bytes once, and leaves no partial file behind', async () => {
    const { store: files, dir } = store();
    const ids = await Promise.all([1, 2, 3].map(() => files.put(PNG, 'image/png')));
    expect(new Set(ids).size).toBe(1);
    await files.put(Buffer.from('{"a":1}'), 'application/json');
    expect(readdirSync(dir).sort()).toEqual(
      [ids[0], `${sha256(Buffer.from('{"a":1}'))}.json`].sort(),
    );
  });

  it('refuses a type it does not keep', async () => {
    await expect(store().store.put(PNG, 'text/html')).rejects.toThrow('does not keep text/html');
  });

  it('finds nothing for ids that are not its own, paths included', async () => {
    const { store: files } = store();
    const id = await files.put(PNG, 'image/png');
    for (const other of [
      `${sha256(Buffer.from('x'))}.png`,
      '../../etc/passwd',
      `${id}/..`,
      id.toUpperCase(),
      id.replace('.png', '.exe'),
      `.${id}`,
    ])
      expect(await files.get(other)).toBeUndefined();
  });

  it('leaves no partial file when a write fails half-way', async () => {
    const { store: files, dir } = store();
    await files.put(PNG, 'image/png');
    const rename = jest.spyOn(fsPromises, 'rename').mockRejectedValueOnce(new Error('disk full'));
    try {
      await expect(files.put(Buffer.from('other'), 'image/gif')).rejects.toThrow('disk full');
    } finally {
      rename.mockRestore();
    }
    expect(readdirSync(dir)).toEqual([`${sha256(PNG)}.png`]);
  });
});
