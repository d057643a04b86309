import { ValidateBy } from './validator-subset';

/** 192 bits: the least key an HMAC-SHA256 secret should have; 32 random bytes are advised. */
export const MIN_WEBHOOK_SECRET_BYTES = 24;

/**
 * The scheme's secret form, `whsec_` and canonical (padded) base64, decoding to enough bytes:
 * checked here rather than by the library, whose decoder takes unpadded text and any length.
 */
export function isWebhookSecret(value: unknown): boolean {
  if (typeof value !== 'string' || !value.startsWith('whsec_')) return false;
  const base64 = value.slice('whsec_'.length);
  const key = Buffer.from(base64, 'base64');
  return key.toString('base64') === base64 && key.length >= MIN_WEBHOOK_SECRET_BYTES;
}

/**
 * A configuration class's rule for a Standard Webhooks secret (`whsec_` and the base64 of 24
 * random bytes or more): WEBHOOK_SECRET's, and an action's own webhook secret's
 * (docs/webhooks.md, "An action's own webhook").
 */
export const IsWebhookSecret = (): PropertyDecorator =>
  ValidateBy({
    name: 'isWebhookSecret',
    validator: {
      validate: isWebhookSecret,
      defaultMessage: () =>
        `$property must be whsec_ followed by the base64 of ${MIN_WEBHOOK_SECRET_BYTES} random bytes or more; ` +
        `make one with: node -e "console.log('whsec_'+require('crypto').randomBytes(32).toString('base64'))"`,
    },
  });
