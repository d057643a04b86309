import { HttpStatus, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { METHODS } from 'node:http';
import { ActionException } from '../../contract/action.exception';
import { ActionRegistry } from '../../kit/action.registry';

/** What an action path answers: its metadata, its run, CORS preflights. */
export const ACTION_PATH_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS'];
const ALLOW = 'GET, POST, OPTIONS';
/** Node hands CONNECT to its own event, never to Fastify's router. */
const UNROUTABLE = ['CONNECT'];

function refuse(req: FastifyRequest, reply: FastifyReply): never {
  void reply.header('allow', ALLOW);
  throw new ActionException(HttpStatus.METHOD_NOT_ALLOWED, 'Method not allowed', {
    message: `${req.method} is not allowed here: POST runs the action, GET reads its metadata`,
    code: 'METHOD_NOT_ALLOWED',
  });
}

/**
 * Answers the other methods on every declared action path with 405 and `Allow`, in the action's
 * mode (the exception filter finds the action from the route), where Fastify would answer 404.
 */
@Injectable()
export class MethodNotAllowedRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly registry: ActionRegistry,
  ) {}

  /** Runs once Nest has registered its routes: a method an action serves itself is left alone. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Fastify routes only the methods it was told of (WebDAV's PROPFIND, MKCOL… are not): every
    // other method Node parses is added, without a body, so an action path answers it 405 too.
    for (const method of METHODS) {
      if (!UNROUTABLE.includes(method) && !fastify.supportedMethods.includes(method))
        fastify.addHttpMethod(method);
    }
    const others = fastify.supportedMethods.filter(
      (m) => !ACTION_PATH_METHODS.includes(m) && !UNROUTABLE.includes(m),
    );
    for (const { path } of this.registry.actions()) {
      const method = others.filter((m) => !fastify.hasRoute({ method: m, url: path }));
      if (method.length > 0) fastify.route({ method, url: path, handler: refuse });
    }
  }
}
