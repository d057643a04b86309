import type * as ImageSize from 'image-size';
import type * as MagicBytes from 'magic-bytes.js';
import { open } from 'node:fs/promises';
import {
  type FileContent,
  type UploadedFile,
  type UploadedImage,
  withContent,
} from './uploaded-file';

/**
 * The two readers, loaded with the first upload: actions without one never pay them at boot
 * (docs/performance.md).
 */
let readers: {
  imageSize: typeof ImageSize.imageSize;
  filetypeinfo: typeof MagicBytes.filetypeinfo;
};
const reader = (): typeof readers =>
  (readers ??= {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    imageSize: (require('image-size') as typeof ImageSize).imageSize,
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    filetypeinfo: (require('magic-bytes.js') as typeof MagicBytes).filetypeinfo,
  });

/** Files made by the upload reader: a JSON value shaped like one is still not a file. */
const uploads = new WeakSet<object>();

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && uploads.has(value);

export const isUploadedImage = (value: unknown): value is UploadedImage =>
  isUploadedFile(value) && 'width' in value;

/** Extensions that name one type two ways. */
const ALIASES: Record<string, string> = { jpg: 'jpeg', tif: 'tiff', htm: 'html' };
const normal = (extension: string): string => {
  const lower = extension.toLowerCase().replace(/^\./, '');
  return ALIASES[lower] ?? lower;
};
const extensionOf = (filename: string): string => {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? normal(filename.slice(dot + 1)) : '';
};

/**
 * Text has no magic number: UTF-8 without NUL or other control characters than tab and line ends.
 * `head` may end inside a character (a spooled file is judged on its first bytes): decoded as a
 * stream, an unfinished last character is no error.
 */
function isText(head: Buffer): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(head.toString('latin1'))) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** An image header that far into a file is read from disk (image-size's own bound). */
const IMAGE_HEADER_BYTES = 524_288;

/**
 * Names an uploaded file's real type from its bytes. Where the bytes allow several types (a ZIP is
 * also a DOCX), the name's extension picks among them; it never adds a type the bytes do not allow.
 * An image also gets its dimensions, read from its header.
 */
export function sniffFile(filename: string, bytes: Buffer): UploadedFile | UploadedImage {
  const { description, image } = describe(filename, bytes, bytes.length);
  return made(description, image ? dimensions(bytes) : undefined, { bytes });
}

/**
 * The same for a file written to `path` as it arrived, of which `head` holds the first bytes: its
 * type is read from them, its dimensions too unless its header lies further (a JPEG's EXIF).
 */
export async function sniffStoredFile(
  filename: string,
  head: Buffer,
  size: number,
  path: string,
): Promise<UploadedFile | UploadedImage> {
  const { description, image } = describe(filename, head, size);
  const size2d = image ? (dimensions(head) ?? dimensions(await readHead(path))) : undefined;
  return made(description, size2d, { path });
}

type Description = Pick<UploadedFile, 'filename' | 'mimeType' | 'extension' | 'size'>;

function describe(
  filename: string,
  head: Buffer,
  size: number,
): { description: Description; image: boolean } {
  const guesses = reader().filetypeinfo(head);
  const wanted = extensionOf(filename);
  const guess =
    guesses.find((g) => normal(g.extension ?? '') === wanted || normal(g.typename) === wanted) ??
    guesses[0];
  const text = !guess && size > 0 && isText(head);
  const mimeType = guess?.mime ?? (text ? 'text/plain' : 'application/octet-stream');
  const extension = guess ? normal(guess.extension ?? guess.typename) : text ? 'txt' : '';
  return {
    description: { filename, mimeType, extension, size },
    image: mimeType.startsWith('image/'),
  };
}

function made(
  description: Description,
  size2d: { width: number; height: number } | undefined,
  content: FileContent,
): UploadedFile | UploadedImage {
  const file = withContent({ ...description, ...size2d }, content);
  uploads.add(file);
  return file;
}

/** An image's dimensions from its header; none for a truncated or corrupt one (a file, not an image). */
function dimensions(bytes: Buffer): { width: number; height: number } | undefined {
  try {
    const { width, height } = reader().imageSize(bytes);
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(IMAGE_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, IMAGE_HEADER_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** SVG is text a browser runs scripts from: an image only where `accept` names it. */
export const isSvg = (file: UploadedFile): boolean => file.mimeType === 'image/svg+xml';

/**
 * Whether the file's real type is one of `accept`'s MIME types or extensions; `image/*` covers
 * every image but SVG, which must be named (`image/svg+xml` or `.svg`).
 */
export function matchesAccept(file: UploadedFile, accept: readonly string[]): boolean {
  const [kind] = file.mimeType.split('/');
  return accept.some((entry) => {
    const item = entry.toLowerCase();
    if (item.startsWith('.')) return file.extension !== '' && normal(item) === file.extension;
    if (item.endsWith('/*')) return item.slice(0, -2) === kind && !isSvg(file);
    return item === file.mimeType;
  });
}

/** The entries of a declared `accept` (comma-separated, as an HTML file input takes it). */
export const acceptList = (accept: string | undefined): string[] =>
  (accept ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
