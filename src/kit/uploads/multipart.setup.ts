import fastifyMultipart from '@fastify/multipart';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { UploadConfig } from '../../config/upload.config';

/**
 * Multipart bodies are left unread by Fastify (the plugin's parser only marks the request), so the
 * guards refuse an upload before any of it is read; UploadBodyGuard reads it after them. An answer
 * sent before an upload was read to its end closes the connection: Node would otherwise read and
 * discard the rest of it to keep the connection alive.
 */
export function registerMultipart(fastify: FastifyInstance, config: UploadConfig): void {
  void fastify.register(fastifyMultipart, {
    limits: { fileSize: config.maxBytes, files: config.maxFiles, fields: config.maxFields },
  });
  fastify.addHook('onSend', (req, reply, payload, done) => {
    if (req.isMultipart() && !req.raw.complete) void reply.header('connection', 'close');
    done(null, payload);
  });
}

/** Whether a request's body is an upload, judged by its head alone (before any body is read). */
export const isUpload = (req: IncomingMessage): boolean =>
  /^\s*multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');
