import type { PathItemObject } from '@nestjs/swagger';
import type { ActionDeclaration, ActionParameter } from '../../contract/action.types';
import { jsonSafe } from '../../contract/json-safe';
import { actionParameters, actionRequestBody } from './action-request.schema';
import { actionResponses } from './action-responses';
import { asSchema, ref } from './json-schema';

/** The bearer scheme of verified actions (components.securitySchemes). */
export const SESSION_SCHEME = 'siweSession';

/** The vendor extension holding a declaration's samples verbatim (read by `npm run check`). */
export const SAMPLES_EXTENSION = 'x-action-samples';

export interface ActionPathInput {
  declaration: ActionDeclaration;
  /** The parameters as the metadata publishes them. */
  params: readonly ActionParameter[];
  /** Unique among the document's operations and schema names. */
  slug: string;
  /** The mini-app's tag. */
  tag: string;
  /** A paid action's sentence on its price (src/payments, describePrice) and its terms. */
  price?: { sentence: string; terms: object };
}

/** The vendor extension holding a paid action's listed terms (x402: amount, token, payTo, network). */
export const PRICE_EXTENSION = 'x-payment';

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/** `POST <path>` runs the action; `GET <path>` answers a mini-app document holding it alone. */
export function actionPath({
  declaration,
  params,
  slug,
  tag,
  price,
}: ActionPathInput): PathItemObject {
  const paramsRef = `${slug}.params`;
  const mode = declaration.responseType === 'data' ? 'data mode' : 'transaction mode';
  const notes = [
    declaration.description && sentence(declaration.description),
    `Runs in ${mode} on chain ${declaration.chains.source}` +
      (declaration.chains.destination === undefined
        ? '.'
        : `, continuing on chain ${declaration.chains.destination}.`),
    declaration.requiresUser ? 'Needs the acting user’s address.' : undefined,
    declaration.user === 'verified'
      ? 'Needs a verified user: a session token from Sign-In with Ethereum (POST /api/auth/siwe).'
      : undefined,
    declaration.callsOutside ? 'Calls an external service.' : undefined,
    price?.sentence,
  ];
  const generated = notes.filter(Boolean).join(' ');
  const post = {
    operationId: `run.${slug}`,
    summary: declaration.label,
    // The declaration's own page text, Markdown, after what the kit knows of the action.
    description: declaration.docs ? `${generated}\n\n${declaration.docs.trim()}` : generated,
    tags: [tag],
    parameters: actionParameters(declaration, params),
    requestBody: actionRequestBody(declaration, params, paramsRef),
    responses: actionResponses(declaration),
    ...(declaration.user === 'verified' && { security: [{ [SESSION_SCHEME]: [] }] }),
    [SAMPLES_EXTENSION]: jsonSafe(declaration.samples ?? []),
    ...(price && { [PRICE_EXTENSION]: price.terms }),
  };
  return {
    post,
    get: {
      operationId: `metadata.${slug}`,
      summary: `${declaration.label}: metadata`,
      description: 'The document of a mini-app holding this one action.',
      tags: [tag],
      responses: {
        200: {
          description: 'The mini-app document',
          content: { 'application/json': { schema: asSchema(ref('MiniAppMetadata')) } },
        },
      },
    },
  };
}
