import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BLINK_ALLOWED_HEADERS, BLINK_EXPOSED_HEADERS, isBlinkRoute } from './blink-headers';

/** The CORS options of @fastify/cors that the service uses (a subset). */
export interface CorsRules {
  origin: string | string[];
  methods: string;
  allowedHeaders: string;
  exposedHeaders: string;
  optionsSuccessStatus: number;
  strictPreflight: boolean;
}

/** What the Fastify adapter's enableCors takes (@fastify/cors's options). */
type CorsOptions = NonNullable<Parameters<NestFastifyApplication['enableCors']>[0]>;

/**
 * The service's CORS rules, except on blink routes, where the spec's apply: any origin, the
 * action headers exposed. The origin guard never sees blink routes (they are no action and not
 * guarded); the actions they run are called in-process, with no Origin.
 */
export function corsWithBlinks(rules: CorsRules): CorsOptions {
  const merge = (list: string, extra: string[]): string =>
    [...new Set([...list.split(', '), ...extra])].join(', ');
  const blink: CorsRules = {
    ...rules,
    origin: '*',
    allowedHeaders: merge(rules.allowedHeaders, BLINK_ALLOWED_HEADERS),
    exposedHeaders: merge(rules.exposedHeaders, BLINK_EXPOSED_HEADERS),
  };
  return { delegator: (req, done) => done(null, isBlinkRoute(req) ? blink : rules) };
}
