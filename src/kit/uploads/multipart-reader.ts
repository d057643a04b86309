import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { UploadConfig } from '../../config/upload.config';
import type { ActionParameter } from '../../contract/action.types';
import { ActionException } from '../../contract/action.exception';
import { ByteCap } from './byte-cap';
import { badRequest, tooLarge } from './upload-errors';
import { sniffFile, sniffStoredFile } from './file-sniffer';
import type { UploadTicket } from './upload-admission';
import type { SpoolFile, UploadSpool } from './upload-spool';
import { isUploadType, type UploadedFile } from './uploaded-file';

/** What a multipart body carried: text fields by name, and the files of each upload parameter. */
export interface MultipartBody {
  fields: Record<string, string | string[]>;
  files: Map<string, UploadedFile[]>;
}

/** `image`, `image[0]`, `image[]`: the platform sends several files of one parameter as `name[i]`. */
const FILE_FIELD = /^(.+?)(?:\[\d{0,4}\])?$/;

/**
 * The plugin's and busboy's errors as the contract's: limits are 413, the rest 400. A spool that
 * cannot be written is already a 503 (upload-spool.ts), never taken for a malformed body.
 */
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

/** What reading one request's files shares: its byte count and bound, its temporary directory. */
export interface UploadSession {
  ticket: UploadTicket;
  spool: UploadSpool;
}

/**
 * Reads one file, refusing it with a 413 as soon as it passes its parameter's limit. Its first
 * bytes (up to the spool threshold) stay in memory; past them, the file goes to a temporary file
 * as it arrives, each chunk written before the next is read (the client waits on the disk).
 */
async function readFile(
  part: MultipartFile,
  param: ActionParameter,
  cap: ByteCap,
  config: UploadConfig,
  spool: UploadSpool,
): Promise<UploadedFile> {
  const limit = Math.min(param.maxSize ?? config.maxBytes, config.maxBytes);
  const head: Buffer[] = [];
  let size = 0;
  let disk: SpoolFile | undefined;
  const stream = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let done = false;
  try {
    for (;;) {
      const next = await cap.race(stream.next());
      if (next.done) break;
      size += next.value.length;
      if (size > limit)
        throw tooLarge(
          `${param.name} must be at most ${param.maxSize ?? config.maxBytes} bytes`,
          param.name,
        );
      if (!disk && size <= config.spoolThresholdBytes) {
        head.push(next.value);
        continue;
      }
      if (!disk) {
        disk = await spool.open(config.spoolDir);
        await cap.race(disk.write(Buffer.concat(head)));
        // The type is read from the file's first bytes, which this chunk may still hold (the
        // whole file arrives in one chunk from an injected request): copied, not the chunk kept.
        const before = size - next.value.length;
        head.push(Buffer.from(next.value.subarray(0, config.spoolThresholdBytes - before)));
      }
      await cap.race(disk.write(next.value));
    }
    done = true;
  } finally {
    if (!done) void stream.return?.().catch(() => undefined);
    await disk?.close().catch(() => undefined);
  }
  if (part.file.truncated)
    throw tooLarge(`Upload larger than ${config.maxBytes} bytes`, param.name);
  return disk
    ? sniffStoredFile(part.filename, Buffer.concat(head), size, disk.path)
    : sniffFile(part.filename, Buffer.concat(head, size));
}

function addField(fields: MultipartBody['fields'], name: string, value: string): void {
  const previous = fields[name];
  fields[name] =
    previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
}

const reading = new Set<Promise<MultipartBody>>();

/** Multipart reads still running. */
export const uploadsInFlight = (): number => reading.size;

/** Settles once every read running now has settled, whatever its outcome. */
export async function uploadsSettled(): Promise<void> {
  await Promise.allSettled([...reading]);
}

/**
 * Reads a multipart request as the platform sends it, once the guards and UploadAdmission let it
 * through: each file of an upload parameter (under `name` or `name[i]`), every other part as a
 * text field. Small files are held in memory, larger ones in `session.spool`; the request's bytes,
 * its files and fields are capped (a cap crossed is a 413 at once), and its bytes are counted
 * against the in-flight bound (503 when it is full). Whatever happens (a refusal, a malformed
 * body, a client gone half-way) the read settles; the caller removes the spool.
 */
export function readMultipart(
  req: FastifyRequest,
  params: readonly ActionParameter[],
  config: UploadConfig,
  session: UploadSession,
): Promise<MultipartBody> {
  const read = readParts(req, params, config, session);
  reading.add(read);
  const forget = (): void => void reading.delete(read);
  read.then(forget, forget);
  return read;
}

async function readParts(
  req: FastifyRequest,
  params: readonly ActionParameter[],
  config: UploadConfig,
  { ticket, spool }: UploadSession,
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
  const cap = new ByteCap(req, config.maxBytes, ticket);
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
      const file = await readFile(part, param, cap, config, spool);
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
