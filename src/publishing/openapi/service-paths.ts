import type { OperationObject, PathsObject, ResponseObject } from '@nestjs/swagger';
import { asSchema, type JsonSchema, ref } from './json-schema';

const TAGS = ['Service'];

const answer = (description: string, schema: JsonSchema): ResponseObject => ({
  description,
  content: { 'application/json': { schema: asSchema(schema) } },
});

const notFound = answer('Not found', ref('DataError'));

const get = (
  operationId: string,
  summary: string,
  responses: OperationObject['responses'],
  extra: Partial<OperationObject> = {},
): { get: OperationObject } => ({
  get: { operationId, summary, tags: TAGS, ...extra, responses },
});

/** The endpoints every deployment serves besides its actions (README "Run it", docs/operating.md). */
export function servicePaths(miniAppIds: readonly string[]): PathsObject {
  return {
    '/api/metadata': get('metadata.index', 'The index of the mini-apps the service hosts', {
      200: answer('The index', ref('MiniAppIndex')),
    }),
    '/api/mini-apps/{id}': get(
      'metadata.miniApp',
      'The document to register on the platform for one mini-app',
      { 200: answer('The mini-app document', ref('MiniAppMetadata')), 404: notFound },
      {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: asSchema({ enum: [...miniAppIds] }) },
        ],
      },
    ),
    '/health': get('health.live', 'Liveness', {
      200: answer('Alive', { type: 'object', properties: { status: { const: 'ok' } } }),
    }),
    '/health/ready': get('health.ready', 'Readiness, with each dependency', {
      200: answer('Ready (or degraded: an optional dependency is down)', ref('Readiness')),
      503: answer('Not ready: shutting down, or a required dependency is down', ref('DataError')),
    }),
    '/icons/{file}': get(
      'icons.get',
      'A mini-app icon (immutable: its published URL changes with its content)',
      {
        200: {
          description: 'The icon',
          content: { 'image/*': { schema: asSchema({ type: 'string', format: 'binary' }) } },
        },
        404: notFound,
      },
      { parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }] },
    ),
    '/api/openapi.json': get('openapi.document', 'This document (OpenAPI 3.1)', {
      200: answer('The document', { type: 'object' }),
    }),
  };
}
