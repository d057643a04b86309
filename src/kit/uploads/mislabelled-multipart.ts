import type { FastifyRequest } from 'fastify';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A multipart body's opening line, `--<boundary>\r\n`: RFC 2046's boundary characters, 1 to 70
 * of them (a space only inside, so none at its end).
 */
const OPENING = /^--([0-9A-Za-z'()+_,\-./:=?]{1,70})\r\n/;
const LONGEST_OPENING = 2 + 70 + 2;

const labelledJson = (req: FastifyRequest): boolean =>
  /^\s*application\/json\b/i.test(req.headers['content-type'] ?? '');

/**
 * The platform SDK's header builder labels every body `application/json`, uploads included
 * (shared/platform/mini-app-platform.md). On an action that declares uploads, a body so labelled
 * that opens with a boundary line is relabelled `multipart/form-data` with that boundary before
 * Fastify picks its parser, so it is read as the upload it is, under every upload bound. The bytes
 * looked at are put back unread; anything else stays JSON (and a 400 when it is not).
 */
export async function relabelMultipart(req: FastifyRequest, payload: Readable): Promise<void> {
  if (!labelledJson(req) || req.headers['content-length'] === '0') return;
  // An injected request (light-my-request, no socket) never announces its bytes this way.
  if (!(req.raw.socket instanceof Socket)) return;
  const first = await firstBytes(payload);
  if (first === undefined) return;
  payload.unshift(first);
  const match = OPENING.exec(first.subarray(0, LONGEST_OPENING).toString('latin1'));
  if (match) req.raw.headers['content-type'] = `multipart/form-data; boundary=${match[1]}`;
}

/** What the body's first chunk holds (a body's opening line arrives in it), or undefined at its end. */
function firstBytes(payload: Readable): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const done = (result?: Buffer, error?: Error): void => {
      payload.off('readable', onReadable).off('end', onEnd).off('error', onError);
      if (error) reject(error);
      else resolve(result);
    };
    const onReadable = (): void => {
      const chunk = payload.read() as Buffer | null;
      if (chunk !== null) done(chunk);
    };
    const onEnd = (): void => done();
    const onError = (error: Error): void => done(undefined, error);
    payload.on('readable', onReadable).on('end', onEnd).on('error', onError);
  });
}
