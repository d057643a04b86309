import { gif, jpeg, pdf, png, webp } from '../../testing/sample-files';
import { acceptList, isUploadedFile, matchesAccept, sniffFile } from './file-sniffer';

describe('sniffFile', () => {
  it.each([
    ['a PNG', png(3, 2), 'image/png', 'png', { width: 3, height: 2 }],
    ['a JPEG', jpeg(640, 480), 'image/jpeg', 'jpeg', { width: 640, height: 480 }],
    ['a WebP', webp(1920, 1080), 'image/webp', 'webp', { width: 1920, height: 1080 }],
    ['a GIF', gif(5, 7), 'image/gif', 'gif', { width: 5, height: 7 }],
  ])('reads %s from its bytes, with its dimensions', (_, bytes, mimeType, extension, size) => {
    expect({ ...sniffFile('upload.bin', bytes) }).toEqual({
      filename: 'upload.bin',
      mimeType,
      extension,
      size: bytes.length,
      bytes,
      ...size,
    });
  });

  it('names the real type whatever the name says', () => {
    expect(sniffFile('report.pdf', png(1, 1)).mimeType).toBe('image/png');
    expect(sniffFile('photo.png', pdf())).toMatchObject({
      mimeType: 'application/pdf',
      extension: 'pdf',
    });
  });

  it('reads text as text/plain and other bytes without a magic number as unknown', () => {
    expect(sniffFile('a.png', Buffer.from('héllo\nworld\t!'))).toMatchObject({
      mimeType: 'text/plain',
      extension: 'txt',
    });
    expect(sniffFile('a.txt', Buffer.from([0x01, 0x02, 0x03, 0x00]))).toMatchObject({
      mimeType: 'application/octet-stream',
      extension: '',
    });
    expect(sniffFile('a.txt', Buffer.from([0xc3, 0x28]))).toMatchObject({
      mimeType: 'application/octet-stream',
    });
  });

  it('lets the name choose among the types the bytes allow, never beyond them', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
    expect(sniffFile('letter.docx', zip).extension).toBe('docx');
    expect(sniffFile('archive.zip', zip).extension).toBe('zip');
    expect(sniffFile('photo.png', zip).extension).toBe('zip');
  });

  it('keeps a truncated image a file without dimensions', () => {
    const file = sniffFile('cut.png', png(8, 8).subarray(0, 12));
    expect(file.mimeType).toBe('image/png');
    expect(file).not.toHaveProperty('width');
  });

  it('marks what it made as uploaded files, and nothing shaped like one', () => {
    expect(isUploadedFile(sniffFile('a.png', png(1, 1)))).toBe(true);
    expect(isUploadedFile({ ...sniffFile('a.png', png(1, 1)) })).toBe(false);
  });
});

describe('matchesAccept', () => {
  const photo = sniffFile('x', jpeg(10, 10));
  it.each([
    ['image/jpeg', true],
    ['IMAGE/JPEG', true],
    ['image/*', true],
    ['.jpg', true],
    ['.jpeg', true],
    ['.JPG', true],
    ['image/png, .pdf', false],
    ['application/*', false],
  ])('%s → %p', (accept, expected) => {
    expect(matchesAccept(photo, acceptList(accept))).toBe(expected);
  });

  it('never lets image/* cover an SVG: only image/svg+xml or .svg name it', () => {
    const svg = sniffFile('x.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(svg.mimeType).toBe('image/svg+xml');
    expect(matchesAccept(svg, acceptList('image/*'))).toBe(false);
    expect(matchesAccept(svg, acceptList('image/*, image/svg+xml'))).toBe(true);
    expect(matchesAccept(svg, acceptList('.svg'))).toBe(true);
  });

  it('never matches an extension for a file of unknown type', () => {
    expect(matchesAccept(sniffFile('a.bin', Buffer.from([0, 1])), ['.bin'])).toBe(false);
  });
});
