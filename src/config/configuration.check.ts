import { loadConfig } from './app.config';
import { loadCacheConfig } from './cache.config';
import { ConfigError, type Env } from './env';
import { loadExternalConfig } from './external.config';
import { loadObservabilityConfig } from './observability.config';
import { loadThrottleConfig } from './throttle.config';
import { loadTracingConfig } from './tracing.config';
import { loadUploadConfig } from './upload.config';

type Check = (env: Env) => unknown;

/** What the layers above add: a feature's own loader, run with these before anything starts. */
const registered = new Set<Check>();

/** Adds a loader to those checkConfiguration runs (a feature module's, at import). */
export function registerConfigCheck(check: Check): void {
  registered.add(check);
}

/** A number the core settings would read, or the default when they refuse it (reported anyway). */
const numberOr = (value: string | undefined, fallback: number): number =>
  value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : fallback;

/** Every loader of this layer, each reading its own group of variables. */
const CHECKS: Check[] = [
  loadConfig,
  loadThrottleConfig,
  loadCacheConfig,
  (env) => loadObservabilityConfig(env, numberOr(env.PORT, 3000)),
  loadTracingConfig,
  (env) => loadUploadConfig(env, numberOr(env.BODY_LIMIT_BYTES, 1_048_576)),
  loadExternalConfig,
];

/**
 * Runs every configuration loader and refuses the boot with all their problems at once, in one
 * shape (ConfigError), instead of the first group only. Run first by src/tracing.ts and by
 * bootstrap, before Nest builds a module (where a refusal would come with Nest's stack).
 */
export function checkConfiguration(env: Env): void {
  const problems = new Set<string>();
  for (const check of [...CHECKS, ...registered]) {
    try {
      check(env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const problem of error.problems) problems.add(problem);
    }
  }
  if (problems.size > 0) throw new ConfigError([...problems]);
}
