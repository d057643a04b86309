import fastifyMultipart from '@fastify/multipart';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { UploadConfig } from '../../config/upload.config';
import { prepareSpool } from './spool-sweep';
import { spoolRemovalsSettled } from './upload-spool';

/**
 * Multipart bodies are left unread by Fastify (the plugin's parser only marks the request), so the
 * guards refuse an upload before any of it is read; UploadBodyGuard reads it after them. Before
 * the server listens, the spool is cleared of what earlier runs left and checked (spool-sweep.ts);
 * once it has closed, the folders of the requests it cut short are removed too.
 */
export function registerMultipart(fastify: FastifyInstance, config: UploadConfig): void {
  void fastify.register(fastifyMultipart, {
    limits: { fileSize: config.maxBytes, files: config.maxFiles, fields: config.maxFields },
  });
  fastify.addHook('onReady', () => prepareSpool(config.spoolDir));
  fastify.addHook('onClose', () => spoolRemovalsSettled());
}

/** Whether a request's body is an upload, judged by its head alone (before any body is read). */
export const isUpload = (req: IncomingMessage): boolean =>
  /^\s*multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');

/**
 * An answer sent before an upload was read to its end closes the connection: Node would otherwise
 * read and discard the rest of it to keep the connection alive. Marked when the request is first
 * seen (and again once a mislabelled body is found to be one), lifted when the body has been read:
 * only uploads pay, where a hook on every answer made every request pay.
 */
export function closeUnlessUploadRead(req: IncomingMessage, res: ServerResponse): void {
  if (res.hasHeader('connection') || !isUpload(req)) return;
  res.setHeader('connection', 'close');
  req.once('end', () => {
    if (!res.headersSent) res.removeHeader('connection');
  });
}
