import type { AppConfig } from '../config/app.config';
import type { Env } from '../config/env';

/**
 * Configurations that boot and serve, but not as a paying customer expects: written once at boot
 * at `warn`, so they show in the first lines of every pod's log. (A production without
 * PUBLIC_BASE_URL nor ALLOWED_HOSTS is MetadataController's to warn of.)
 */
export function bootWarnings(config: AppConfig, env: Env): string[] {
  const warnings: string[] = [];
  // Several replicas each counting alone: a client gets every rate limit once per replica.
  const replicated = (config.replicas ?? 1) > 1 || env.KUBERNETES_SERVICE_HOST !== undefined;
  if (replicated && !config.redis) {
    warnings.push(
      'REDIS_URL is not set but several replicas are likely (REPLICAS, or Kubernetes): ' +
        'each replica enforces rate limits and caches alone',
    );
  }
  return warnings;
}
