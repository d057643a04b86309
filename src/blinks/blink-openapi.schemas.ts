import { type JsonSchema, ref } from '../publishing/openapi/json-schema';

/** The spec's shapes, as far as a client of this service meets them. */
export const BLINK_SCHEMAS: Record<string, JsonSchema> = {
  BlinkError: {
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string' } },
  },
  BlinkAction: {
    type: 'object',
    required: ['type', 'icon', 'title', 'description', 'label'],
    properties: {
      type: { enum: ['action', 'completed'] },
      icon: { type: 'string', format: 'uri' },
      title: { type: 'string' },
      description: { type: 'string' },
      label: { type: 'string' },
      disabled: { type: 'boolean' },
      error: ref('BlinkError'),
      links: {
        type: 'object',
        properties: { actions: { type: 'array', items: { type: 'object' } } },
      },
    },
  },
  BlinkMessage: {
    type: 'object',
    required: ['type', 'data', 'state', 'links'],
    properties: {
      type: { const: 'message' },
      data: { type: 'string', description: 'The EIP-4361 message to sign' },
      state: { type: 'string', description: 'Its fields, sealed: post it back unchanged' },
      links: { type: 'object', properties: { next: { type: 'object' } } },
    },
  },
  BlinkPostResponse: {
    type: 'object',
    required: ['type'],
    properties: {
      type: { enum: ['transaction', 'post'] },
      transaction: { type: 'string', description: 'The serialized transaction to sign' },
      message: { type: 'string' },
      links: { type: 'object', properties: { next: { type: 'object' } } },
    },
  },
};
