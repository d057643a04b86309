import { imageSize } from 'image-size';
import { filetypeinfo } from 'magic-bytes.js';
import type { UploadedFile, UploadedImage } from './uploaded-file';

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

/** Text has no magic number: UTF-8 without NUL or other control characters than tab and line ends. */
function isText(bytes: Buffer): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(bytes.toString('latin1'))) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Names an uploaded file's real type from its bytes. Where the bytes allow several types (a ZIP is
 * also a DOCX), the name's extension picks among them; it never adds a type the bytes do not allow.
 * An image also gets its dimensions, read from its header.
 */
export function sniffFile(filename: string, bytes: Buffer): UploadedFile | UploadedImage {
  const guesses = filetypeinfo(bytes);
  const wanted = extensionOf(filename);
  const guess =
    guesses.find((g) => normal(g.extension ?? '') === wanted || normal(g.typename) === wanted) ??
    guesses[0];
  const text = !guess && isText(bytes);
  const file: UploadedFile = {
    filename,
    mimeType: guess?.mime ?? (text ? 'text/plain' : 'application/octet-stream'),
    extension: guess ? normal(guess.extension ?? guess.typename) : text ? 'txt' : '',
    size: bytes.length,
    bytes,
  };
  const described = file.mimeType.startsWith('image/') ? withSize(file) : file;
  uploads.add(described);
  return described;
}

function withSize(file: UploadedFile): UploadedFile | UploadedImage {
  try {
    const { width, height } = imageSize(file.bytes);
    return width > 0 && height > 0 ? { ...file, width, height } : file;
  } catch {
    return file; // a truncated or corrupt header: a file, not an image
  }
}

/** Whether the file's real type is one of `accept`'s MIME types (`image/*` too) or extensions. */
export function matchesAccept(file: UploadedFile, accept: readonly string[]): boolean {
  const [kind] = file.mimeType.split('/');
  return accept.some((entry) => {
    const item = entry.toLowerCase();
    if (item.startsWith('.')) return file.extension !== '' && normal(item) === file.extension;
    if (item.endsWith('/*')) return item.slice(0, -2) === kind;
    return item === file.mimeType;
  });
}

/** The entries of a declared `accept` (comma-separated, as an HTML file input takes it). */
export const acceptList = (accept: string | undefined): string[] =>
  (accept ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
