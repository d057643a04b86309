import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** The parts of an OpenAPI document the suites read. */
export interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
  tags?: { name: string; description?: string }[];
}
/**
 * One operation of the document: what the suites check of an action's parameters, request examples,
 * responses and samples.
 */
export interface Operation {
  operationId: string;
  description?: string;
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    example?: unknown;
  }[];
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  'x-action-samples'?: unknown[];
}
/** A JSON Schema as the document holds it: inline, or a `$ref` to `resolve`. */
export type Schema = Record<string, unknown> & {
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
};

/**
 * GETs the service's OpenAPI document (/api/openapi.json) through inject, failing the test unless
 * it is served as JSON with a 200.
 */
export async function fetchDocument(app: NestFastifyApplication): Promise<Doc> {
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.json<Doc>();
}

/**
 * The verdict of @seriousme/openapi-schema-validator (the official schema of the document's
 * version). In a child process: the validator ships ES modules only, and Jest runs CommonJS.
 */
export function validateOpenApi(document: unknown): { valid: boolean; errors?: unknown } {
  const output = execFileSync(process.execPath, [join(__dirname, 'openapi-validate.mjs')], {
    input: JSON.stringify(document),
  });
  return JSON.parse(output.toString()) as { valid: boolean; errors?: unknown };
}

/** The schema a local `$ref` names. */
export function resolve(document: Doc, schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return document.components.schemas[name];
}

/** The `params` object schema of the action at `path`. */
export function paramsOf(document: Doc, path: string): Schema {
  const body = document.paths[path].post.requestBody?.content['application/json'] as {
    schema: { anyOf: Schema[] };
  };
  const wrapped = body.schema.anyOf[0];
  return resolve(document, wrapped.properties?.params as Schema);
}
