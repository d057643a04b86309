import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { UploadConfig } from '../../config/upload.config';
import type { ActionParameter } from '../../contract/action.types';
import { ActionException } from '../../contract/action.exception';
import { ByteCap } from './byte-cap';
import { badRequest, tooLarge } from './upload-errors';
import { sniffFile } from './file-sniffer';
import { isUploadType, type UploadedFile } from './uploaded-file';

/** What a multipart body carried: text fields by name, and the files of each upload parameter. */
export interface MultipartBody {
  fields: Record<string, string | string[]>;
  files: Map<string, UploadedFile[]>;
}

/** `image`, `image[0]`, `image[]`: the platform sends several files of one parameter as `name[i]`. */
const FILE_FIELD = /^(.+?)(?:\[\d{0,4}\])?$/;

/** The plugin's and busboy's errors as the contract's: limits are 413, the rest 400. */
function mapped(error: unknown, config: UploadConfig): unknown {
  if (error instanceof ActionException) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_FILES_LIMIT') return tooLarge(`Too many files (at most ${config.maxFiles})`);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
    return tooLarge(`Too many fields (at most ${config.maxFields})`);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return tooLarge(`Upload larger than ${config.maxBytes} bytes`);
  return badRequest('Malformed multipart body');
}

/** Reads one file into memory, refusing it with a 413 as soon as it passes its parameter's limit. */
async function readFile(
  part: MultipartFile,
  param: ActionParameter,
  cap: ByteCap,
  maxBytes: number,
): Promise<UploadedFile> {
  const limit = Math.min(param.maxSize ?? maxBytes, maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let done = false;
  try {
    for (;;) {
      const next = await cap.race(stream.next());
      if (next.done) break;
      size += next.value.length;
      if (size > limit)
        throw tooLarge(
          `${param.name} must be at most ${param.maxSize ?? maxBytes} bytes`,
          param.name,
        );
      chunks.push(next.value);
    }
    done = true;
  } finally {
    if (!done) void stream.return?.().catch(() => undefined);
  }
  if (part.file.truncated) throw tooLarge(`Upload larger than ${maxBytes} bytes`, param.name);
  return sniffFile(part.filename, Buffer.concat(chunks, size));
}

function addField(fields: MultipartBody['fields'], name: string, value: string): void {
  const previous = fields[name];
  fields[name] =
    previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
}

const reading = new Set<Promise<MultipartBody>>();

/** Multipart reads still running; each holds at most UPLOAD_MAX_BYTES until it settles. */
export const uploadsInFlight = (): number => reading.size;

/** Settles once every read running now has settled, whatever its outcome. */
export async function uploadsSettled(): Promise<void> {
  await Promise.allSettled([...reading]);
}

/**
 * Reads a multipart request as the platform sends it, once the guards let it through: each file
 * of an upload parameter (under `name` or `name[i]`), every other part as a text field. Files are
 * held in memory, never on disk; the request's bytes, its files and fields are capped, and a cap
 * crossed is a 413 at once. Whatever happens (a refusal, a malformed body, a client gone half-way)
 * the read settles and keeps nothing.
 */
export function readMultipart(
  req: FastifyRequest,
  params: readonly ActionParameter[],
  config: UploadConfig,
): Promise<MultipartBody> {
  const read = readParts(req, params, config);
  reading.add(read);
  const forget = (): void => void reading.delete(read);
  read.then(forget, forget);
  return read;
}

async function readParts(
  req: FastifyRequest,
  params: readonly ActionParameter[],
  config: UploadConfig,
): Promise<MultipartBody> {
  const declared = Number(req.headers['content-length']);
  if (declared > config.maxBytes) throw tooLarge(`Upload larger than ${config.maxBytes} bytes`);
  const uploads = new Map(params.filter((p) => isUploadType(p.type)).map((p) => [p.name, p]));
  const body: MultipartBody = { fields: {}, files: new Map() };
  const parts = req
    .parts({
      limits: {
        fileSize: config.maxBytes,
        files: config.maxFiles,
        fields: config.maxFields,
        fieldSize: config.maxFieldBytes,
      },
    })
    [Symbol.asyncIterator]();
  // The first `next()` pipes the request into the parser; counting starts right after it.
  const first = parts.next();
  const cap = new ByteCap(req, config.maxBytes);
  try {
    let next: IteratorResult<Multipart> = await cap.race(first);
    for (; !next.done; next = await cap.race(parts.next())) {
      const part = next.value;
      if (part.type === 'field') {
        if (part.valueTruncated)
          throw tooLarge(`${part.fieldname} is longer than ${config.maxFieldBytes} bytes`);
        addField(body.fields, part.fieldname, String(part.value));
        continue;
      }
      const name = FILE_FIELD.exec(part.fieldname)?.[1] ?? part.fieldname;
      const param = uploads.get(name);
      if (!param) throw badRequest(`${name} is not a file parameter`, name);
      const file = await readFile(part, param, cap, config.maxBytes);
      body.files.set(name, [...(body.files.get(name) ?? []), file]);
    }
    return body;
  } catch (error) {
    cap.stop();
    void parts.return?.(undefined).catch(() => undefined);
    throw mapped(error, config);
  } finally {
    cap.stop();
  }
}
