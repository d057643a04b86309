import { randomBytes } from 'node:crypto';

/** 24 random bytes in base64url: 32 URL-safe characters, 192 bits nobody guesses. */
export const newIntentId = (): string => randomBytes(24).toString('base64url');

/** An intent id's shape, as JSON Schema and OpenAPI write it: what newIntentId gives. */
export const INTENT_ID_PATTERN = '^[A-Za-z0-9_-]{32}$';
const INTENT_ID = new RegExp(INTENT_ID_PATTERN);
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/** What a path may name as an intent: the shape newIntentId gives, nothing longer. */
export const isIntentId = (text: unknown): text is string =>
  typeof text === 'string' && INTENT_ID.test(text);

/** A transaction hash: 32 bytes in hex. */
export const isTransactionHash = (text: unknown): text is `0x${string}` =>
  typeof text === 'string' && TX_HASH.test(text);
