import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MiniAppIcons, readIcons } from './mini-app-icons';

describe('readIcons', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'icons-'));
    writeFileSync(join(dir, 'a.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dir, 'b.PNG'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, 'notes.txt'), 'not an image');
    mkdirSync(join(dir, 'nested.svg'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each image with its content type and a version from its content', () => {
    const files = readIcons(dir);
    expect([...files.keys()].sort()).toEqual(['a.svg', 'b.PNG']);
    expect(files.get('a.svg')?.contentType).toBe('image/svg+xml');
    expect(files.get('b.PNG')?.contentType).toBe('image/png');
    const hash = createHash('sha256').update('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(files.get('a.svg')?.version).toBe(hash.digest('hex').slice(0, 12));
  });

  it('says where the build should have put a missing folder', () => {
    expect(() => readIcons(join(dir, 'missing'))).toThrow(
      /icons folder .*missing cannot be read: `nest build` copies src\/assets\/icons there/,
    );
  });
});

describe('MiniAppIcons', () => {
  const icons = new MiniAppIcons();

  it('serves the shipped icons and publishes them with their version', () => {
    expect(icons.names()).toEqual(
      expect.arrayContaining(['mini-app.svg', 'tools.svg', 'wallet.svg']),
    );
    const { version } = icons.get('tools.svg') ?? { version: '' };
    expect(icons.publishedPath('tools.svg')).toBe(`/icons/tools.svg?v=${version}`);
  });

  it('finds files by exact name only', () => {
    for (const name of ['../mini-app.svg', 'TOOLS.svg', 'tools', '']) {
      expect(icons.get(name)).toBeUndefined();
      expect(icons.publishedPath(name)).toBeUndefined();
    }
  });
});
