import type { ArgumentsHost } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * The request and reply of an HTTP call, read from the context's arguments. Not through
 * `switchToHttp()`: Nest's assigns an object of three new closures to the context on each call,
 * and the kit's steps read them several times a request, on every request of every action.
 */

/** The call's request (Fastify's). */
export const requestOf = <T = FastifyRequest>(host: ArgumentsHost): T => host.getArgByIndex<T>(0);

/** The call's reply (Fastify's). */
export const replyOf = (host: ArgumentsHost): FastifyReply => host.getArgByIndex<FastifyReply>(1);
