import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * An uploaded file as the service receives it: its type is read from the bytes, not the name.
 * A small file is held in memory; a larger one was written to a temporary file as it arrived,
 * which lives until the request's answer is sent: read it (`stream()`, `read()`, `bytes`) in the
 * handler, never after.
 */
export interface UploadedFile {
  /** The name the client gave; never trusted for the type. */
  filename: string;
  /** The real type, from the bytes' magic number: `text/plain` for text, `application/octet-stream` when unknown. */
  mimeType: string;
  /** The real type's usual extension, without the dot (`png`, `pdf`); empty when unknown. */
  extension: string;
  size: number;
  /**
   * The whole file in memory. For a file kept on disk this reads it at once, blocking the event
   * loop for the time it takes (a few ms for 10 MB): prefer `stream()` or `read()`.
   */
  readonly bytes: Buffer;
  /** The file's bytes as a stream, from memory or from its temporary file. */
  stream(): Readable;
  /** The whole file, read without blocking the event loop. */
  read(): Promise<Buffer>;
}

/** An uploaded image, with the dimensions read from its header. */
export interface UploadedImage extends UploadedFile {
  width: number;
  height: number;
}

/** Where a file's bytes are: in memory, or in a temporary file the request owns. */
export type FileContent = { bytes: Buffer } | { path: string };

/**
 * Gives `file` its readers over `content`: `bytes` an enumerable getter (so the object still looks
 * like the plain record it was), `stream` and `read` not enumerable (a file logged or compared is
 * its description).
 */
export function withContent<T extends object>(file: T, content: FileContent): T & UploadedFile {
  const inMemory = 'bytes' in content;
  Object.defineProperties(file, {
    bytes: {
      enumerable: true,
      get: (): Buffer => (inMemory ? content.bytes : readFileSync(content.path)),
    },
    stream: {
      value: (): Readable =>
        inMemory ? Readable.from([content.bytes]) : createReadStream(content.path),
    },
    read: {
      value: (): Promise<Buffer> =>
        inMemory ? Promise.resolve(content.bytes) : readFile(content.path),
    },
  });
  return file as T & UploadedFile;
}

/** Whether a declared parameter type is read from a multipart body: `file` and `image`. */
export const isUploadType = (type: string): boolean => type === 'file' || type === 'image';
