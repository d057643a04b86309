import { HttpStatus } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MAX_CHAIN_TEXT, readChainValue } from '../evm/chains/chain-names';
import type { RequestContext } from '../contract/action.types';
import { ActionException, invalidParams, type ParamProblem } from '../contract/action.exception';
import { readAddress } from '../contract/address';
import type { MultipartBody } from './uploads/multipart-reader';
import type { UploadedFile } from './uploads/uploaded-file';

type Bag = Record<string, unknown>;

/** What an action request carries once its body, query and headers are read. */
export interface ActionRequest {
  context: RequestContext;
  /**
   * Parameters as sent: `body.params`, else the flat body; the query fills what is missing,
   * unless `fromQuery` is false (a `sensitive` or `queryParam: false` parameter).
   */
  input: (name: string, fromQuery?: boolean) => unknown;
}

/** What a multipart body carried, in place of a JSON body: its fields as one, its files apart. */
export interface MultipartInput {
  body: { params: Bag; context?: Bag };
  files: ReadonlyMap<string, UploadedFile[]>;
}

const isBag = (value: unknown): value is Bag =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const own = (bag: Bag | undefined, key: string): unknown =>
  bag !== undefined && Object.hasOwn(bag, key) ? bag[key] : undefined;
const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function first(...values: unknown[]): unknown {
  return values.find(present);
}

/** A chain sent as spaces is no chain: the next source is read (short text only is trimmed). */
const blank = (value: unknown): boolean =>
  typeof value === 'string' && value.length <= MAX_CHAIN_TEXT && value.trim() === '';

function firstChain(...values: unknown[]): unknown {
  return values.find((value) => present(value) && !blank(value));
}

function readBody(body: unknown): { params: Bag; context?: Bag } {
  // No body (or an empty one) is `undefined`; a literal JSON `null` is a non-object body.
  if (body === undefined) return { params: {} };
  if (!isBag(body))
    throw new ActionException(HttpStatus.BAD_REQUEST, 'Request body must be a JSON object');
  const context = isBag(body.context) ? body.context : undefined;
  if (!Object.hasOwn(body, 'params')) return { params: body, context };
  if (!isBag(body.params))
    throw invalidParams([{ name: 'params', message: 'params must be an object' }]);
  return { params: body.params, context };
}

function readUser(value: unknown, problems: ParamProblem[]): RequestContext['userAddress'] {
  if (!present(value)) return undefined;
  const address = typeof value === 'string' ? readAddress(value) : undefined;
  if (address) return address;
  problems.push({ name: 'userAddress', message: 'userAddress must be a valid address' });
  return undefined;
}

/** The first user the headers or the query name: before the body's, which it overrides. */
function userNamedBeforeBody(req: FastifyRequest, query: Bag | undefined): unknown {
  return first(
    req.headers['x-user-address'],
    req.headers['x-wallet-address'],
    own(query, 'userAddress'),
  );
}

/**
 * The user a request names before its body is read, as readActionRequest reads it: the headers,
 * then the query, which the body cannot override. Undefined when only the body can name one;
 * `{ user: undefined }` when the one named is not an address (the request is then a 400).
 */
export function userBeforeBody(req: FastifyRequest): { user: string | undefined } | undefined {
  const named = userNamedBeforeBody(req, isBag(req.query) ? req.query : undefined);
  if (named === undefined) return undefined;
  return { user: typeof named === 'string' ? readAddress(named) : undefined };
}

/** How much of an unknown chain name an error quotes. */
const QUOTED = 40;

/** An id or a known name becomes the id; anything else is a 400 naming the field (and the name). */
function readChain(name: string, value: unknown, problems: ParamProblem[]): number | undefined {
  const reading = readChainValue(value);
  if (reading.ok) return reading.chainId;
  if (reading.problem === 'unknown-name') {
    const text = String(value);
    const quoted = text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text;
    problems.push({ name, message: `${name} '${quoted}' is not a known chain`, value });
  } else if (reading.problem === 'not-an-id') {
    problems.push({ name, message: `${name} must be a valid chain id` });
  } else {
    problems.push({ name, message: `${name} must be a chain id or a chain name` });
  }
  return undefined;
}

/**
 * Reads the parameters and the context of an action request: `req.body`, or what its multipart
 * body carried, then the query and the headers. A malformed one is a 400 naming each problem.
 * Pure: ActionCall reads each request once and keeps what this gives.
 */
export function readActionRequest(req: FastifyRequest, multipart?: MultipartInput): ActionRequest {
  const { params, context: bodyContext } = readBody(multipart ? multipart.body : req.body);
  const query = isBag(req.query) ? req.query : undefined;
  const header = (name: string): unknown => req.headers[name];
  const problems: ParamProblem[] = [];
  const context: RequestContext = {
    requestId: req.id,
    userAddress: readUser(
      first(userNamedBeforeBody(req, query), own(bodyContext, 'userAddress')),
      problems,
    ),
    sourceChain: readChain(
      'sourceChain',
      firstChain(
        header('x-source-chain'),
        header('x-chain-id'),
        own(query, 'chainId'),
        own(query, 'chain'),
        own(bodyContext, 'sourceChain'),
      ),
      problems,
    ),
    destinationChain: readChain(
      'destinationChain',
      firstChain(
        header('x-destination-chain'),
        own(query, 'destinationChain'),
        own(bodyContext, 'destinationChain'),
      ),
      problems,
    ),
  };
  if (problems.length > 0) throw invalidParams(problems);
  const files = multipart?.files;
  return {
    context,
    input: (name, fromQuery = true) => {
      const uploaded = files?.get(name);
      if (uploaded) return uploaded;
      const fromBody = own(params, name);
      return present(fromBody) || !fromQuery ? fromBody : own(query, name);
    },
  };
}

/**
 * What a multipart body carries in place of a JSON body: text fields as the parameters, the
 * `_sdk_context` field (JSON text) as the context, files by parameter name.
 */
export function multipartInput({ fields, files }: MultipartBody): MultipartInput {
  const { _sdk_context: contextText, ...params } = fields;
  let context: unknown;
  if (contextText !== undefined) {
    try {
      context = typeof contextText === 'string' ? JSON.parse(contextText) : undefined;
    } catch {
      context = undefined;
    }
    if (!isBag(context))
      throw invalidParams([
        { name: '_sdk_context', message: '_sdk_context must be a JSON object' },
      ]);
  }
  return { body: { params, ...(isBag(context) && { context }) }, files };
}
