import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { ActionDeclaration, RequestContext } from '../contract/action.types';
import { ACTION_KEY } from './action.decorator';
import {
  type ActionRequest,
  type MultipartInput,
  multipartInput,
  readActionRequest,
} from './action-request';
import { buildParams } from './params-builder';
import type { MultipartBody } from './uploads/multipart-reader';
import { sessionChecks, type UserLevel, type VerifiedUser } from './verified-user';
import { requestOf } from './http-args';

const reflector = new Reflector();

/**
 * The request property that carries its call, declared on every request by KitModule
 * (`decorateRequest`) so a request's shape never changes mid-flight: `null` until the first step
 * looks, `false` for a route that is no action (looked up once too).
 */
export const ACTION_CALL_PROPERTY = 'actionCall';
type Carrier = FastifyRequest & { [ACTION_CALL_PROPERTY]?: ActionCall | false | null };

/**
 * One action request as the kit's steps see it: built by the first step that needs it, read by
 * every later one. The steps, each a global guard, interceptor or parameter decorator registered
 * by KitModule, run in the contract's order:
 *
 *   origin (403) → rate limits (429; the IP limit counted before the body is parsed, with the
 *   session token checked first so a verified user is counted as such) → upload (the head's
 *   chain and user 400, uploads per client 429, in flight 503, body 413) → a token that proves
 *   nothing (401) → context (400: body shape, user, chains) → chain served (400
 *   UNSUPPORTED_CHAIN) → session (401 a `user: 'verified'` action without one, 403 a claimed user
 *   other than the verified one) → params (400) → handler → envelope
 *
 * The declaration is looked up once; the body, query and headers are read once, after the upload
 * step has put a multipart body's fields and files in (never by rewriting `req.body`); the params
 * are converted and validated once.
 */
export class ActionCall implements ActionRequest {
  private upload?: MultipartInput;
  private read?: ActionRequest;
  private built?: object;

  private constructor(
    readonly declaration: ActionDeclaration,
    readonly req: FastifyRequest,
  ) {}

  /** The call of the request in `context`; undefined when its route is no action. */
  static of(context: ExecutionContext): ActionCall | undefined {
    const req = requestOf<Carrier>(context);
    let call = req[ACTION_CALL_PROPERTY];
    if (call === null || call === undefined) {
      const declaration = reflector.get<ActionDeclaration | undefined>(
        ACTION_KEY,
        context.getClass(),
      );
      call = declaration ? new ActionCall(declaration, req) : false;
      req[ACTION_CALL_PROPERTY] = call;
    }
    return call || undefined;
  }

  /** True while a multipart body waits for the upload step: its fields are not read yet. */
  get awaitsUpload(): boolean {
    return this.upload === undefined && this.req.isMultipart?.() === true;
  }

  /** The upload step's result: the body's fields and files stand in for a JSON body. */
  takeUpload(body: MultipartBody): void {
    this.upload = multipartInput(body);
  }

  /** Who runs the action and on which chains; a malformed request is a 400. Read once. */
  get context(): RequestContext {
    return this.request().context;
  }

  input(name: string, fromQuery?: boolean): unknown {
    return this.request().input(name, fromQuery);
  }

  /** The user a valid session token proved (src/auth), once the session step checked it. */
  get verified(): VerifiedUser | undefined {
    // `raw` is Node's request; a unit spec's stand-in may have none.
    return this.req.raw ? sessionChecks.user(this.req.raw) : undefined;
  }

  /** How sure the service is of the user: undefined when the request names none. */
  get userLevel(): UserLevel | undefined {
    if (this.verified) return 'siwe';
    return this.context.userAddress ? 'claimed' : undefined;
  }

  /**
   * The user the rate limits count: the verified address when a session proves one, else what
   * arrived before the body, checksummed (case variants share a bucket): none when absent or
   * malformed (the context step refuses it next; the IP limit has counted the request).
   */
  userForLimits(): string | undefined {
    const verified = this.verified;
    if (verified) return verified.address;
    try {
      return this.awaitsUpload
        ? readActionRequest(this.req).context.userAddress
        : this.context.userAddress;
    } catch {
      return undefined;
    }
  }

  /** The action's parameters, converted and validated from its declaration's class, once. */
  params(): object {
    this.built ??= buildParams(this.declaration, this);
    return this.built;
  }

  /** A valid session makes its address the user when the request claims none. */
  private request(): ActionRequest {
    if (!this.read) {
      const read = readActionRequest(this.req, this.upload);
      const verified = this.verified;
      if (verified && !read.context.userAddress) read.context.userAddress = verified.address;
      this.read = read;
    }
    return this.read;
  }
}
