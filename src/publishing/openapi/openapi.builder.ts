import type { OpenAPIObject, PathsObject, SchemaObject } from '@nestjs/swagger';
import type { ActionDeclaration } from '../../contract/action.types';
import { getDeclaredParams } from '../../kit/action-param.decorator';
import type { MiniAppDeclaration } from '../../contract/mini-app.types';
import { actionPath, SESSION_SCHEME } from './action-path';
import { asSchema } from './json-schema';
import { paramsSchema } from './param-schema';
import { servicePaths } from './service-paths';
import { TRANSACTION_INTENT_SCHEMA, transactionPaths } from './transaction-paths';
import { SHARED_SCHEMAS } from './shared-schemas';

export interface OpenApiInput {
  title: string;
  description: string;
  /** PUBLIC_BASE_URL; without it, paths are relative to wherever the document was read. */
  serverUrl?: string;
  actions: readonly ActionDeclaration[];
  miniApps: readonly MiniAppDeclaration[];
  /** A paid action's price as published (its sentence and terms); undefined for a free one. */
  price?: (declaration: ActionDeclaration) => { sentence: string; terms: object } | undefined;
}

/** The version of the HTTP interface the document describes (the contract's), not the package's. */
export const API_VERSION = '1.0.0';

/** `/api/calculator` → `api-calculator`; a repeat gets a number, so names stay unique. */
function slugger(): (path: string) => string {
  const taken = new Set<string>();
  return (path) => {
    const base = path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'root';
    let slug = base;
    for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  };
}

/**
 * The OpenAPI 3.1 document of the service, from the declarations alone: each action's request,
 * answers and samples, then the metadata, health and icon endpoints and the transaction reports.
 */
export function buildOpenApiDocument(input: OpenApiInput): OpenAPIObject {
  const slug = slugger();
  const paths: PathsObject = {};
  const schemas: Record<string, SchemaObject> = {};
  for (const declaration of input.actions) {
    const params = getDeclaredParams(declaration.params);
    const name = slug(declaration.path);
    schemas[`${name}.params`] = asSchema(paramsSchema(params));
    paths[declaration.path] = actionPath({
      declaration,
      params,
      slug: name,
      tag: declaration.miniApp.title,
      price: input.price?.(declaration),
    });
  }
  Object.assign(paths, servicePaths(input.miniApps.map((miniApp) => miniApp.id)));
  Object.assign(paths, transactionPaths());
  for (const [name, schema] of Object.entries(SHARED_SCHEMAS)) schemas[name] = asSchema(schema);
  schemas.TransactionIntent = asSchema(TRANSACTION_INTENT_SCHEMA);
  return {
    openapi: '3.1.0',
    info: { title: input.title, description: input.description, version: API_VERSION },
    ...(input.serverUrl !== undefined && { servers: [{ url: input.serverUrl }] }),
    tags: [
      ...input.miniApps.map((miniApp) => ({
        name: miniApp.title,
        description: `${miniApp.description} (mini-app \`${miniApp.id}\`)`,
      })),
      { name: 'Service', description: 'Metadata, health, icons and this document' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        [SESSION_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A session token of Sign-In with Ethereum: GET /api/auth/nonce, sign an EIP-4361 message, POST it to /api/auth/siwe (docs/verified-users.md)',
        },
      },
    },
  };
}
