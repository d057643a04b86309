import type { PathsObject, SchemaObject, TagObject } from '@nestjs/swagger';

/**
 * Paths a layer above publishing serves and documents itself (src/blinks, src/mcp): a provider of
 * that layer's module extending this class, found by discovery and added to the document as it is
 * built once at boot. The layer keeps the knowledge of its routes; publishing only assembles.
 */
export abstract class OpenApiExtension {
  abstract readonly tag: TagObject;
  abstract paths(): PathsObject;
  abstract schemas(): Record<string, SchemaObject>;
}
