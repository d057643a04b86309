import { createHash } from 'node:crypto';

/** The types the stores keep, by the extension their ids end with. */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/json': 'json',
};
const TYPES = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));
/** `<sha-256 of the bytes>.<extension>`: nothing else is ever read, so no path leaves the store. */
const ID = /^([0-9a-f]{64})\.([a-z]{3,4})$/;

/** The id of bytes of a type the stores keep; throws for any other type. */
export function contentIdOf(bytes: Buffer, mimeType: string): string {
  const extension = EXTENSIONS[mimeType];
  if (!extension) throw new Error(`The NFT store does not keep ${mimeType}`);
  return `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
}

/** The type of a well-formed id; undefined for anything else (paths, unknown extensions). */
export function mimeTypeOf(id: string): string | undefined {
  const extension = ID.exec(id)?.[2];
  return extension === undefined ? undefined : TYPES[extension];
}

/** The hash an id names: a strong ETag, since the bytes behind an id never change. */
export function etagOf(id: string): string {
  return `"${id.slice(0, 64)}"`;
}

/** The id a stored item's URI ends with (this service's `/nft/<id>` or a bucket's public URL). */
export function idOfUri(uri: string): string | undefined {
  let last: string | undefined;
  try {
    last = new URL(uri).pathname.split('/').pop();
  } catch {
    last = uri;
  }
  return last !== undefined && mimeTypeOf(last) ? last : undefined;
}

/** An owner as the stores name it: a lower-case address, safe as a path segment or key part. */
const OWNER = /^0x[0-9a-f]{40}$/;

/** Throws unless `owner` is a lower-case address: nothing else reaches a path or key. */
export function checkOwner(owner: string): string {
  if (!OWNER.test(owner)) throw new Error('An NFT upload owner is a lower-case address');
  return owner;
}

/** Throws unless `id` is a well-formed content id (see mimeTypeOf). */
export function checkId(id: string): string {
  if (!mimeTypeOf(id)) throw new Error('Not an NFT content id');
  return id;
}
