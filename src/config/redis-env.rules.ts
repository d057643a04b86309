import { ValidateBy } from './validator-subset';
import { parseAddresses, parseRedisUrl } from './redis-target';

/** REDIS_URL: one server's URL, or a cluster's seeds (`redis+cluster://host:port,host:port`). */
export const IsRedisUrl = (): PropertyDecorator =>
  ValidateBy({
    name: 'isRedisUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseRedisUrl(value) !== undefined,
      defaultMessage: () =>
        '$property must be redis://host:port[/db] or rediss://…, or redis+cluster://host:port,host:port (rediss+cluster:// with TLS) for a cluster, with user:password@ percent-encoded',
    },
  });

/** REDIS_SENTINELS: a comma-separated list of `host:port`. */
export const IsAddressList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isAddressList',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && parseAddresses(value) !== undefined,
      defaultMessage: () => '$property must be a comma-separated list of host:port',
    },
  });
