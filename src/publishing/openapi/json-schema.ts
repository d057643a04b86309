import type { SchemaObject } from '@nestjs/swagger';

/**
 * A JSON Schema 2020-12 object, as OpenAPI 3.1 uses it. `@nestjs/swagger`'s `SchemaObject` names
 * no `const`, `$ref` or `x-` keys (since 12 it takes a list of types), so schemas are written with
 * this type and handed over through `asSchema`.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  contentMediaType?: string;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  [extension: `x-${string}`]: unknown;
}

export const asSchema = (schema: JsonSchema): SchemaObject => schema;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
