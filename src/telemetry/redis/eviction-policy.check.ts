import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';

/** Where the sizing of Redis and the reasons for noeviction are written down. */
const DOCS = 'docs/transaction-outcomes.md, "Memory"';

/**
 * What a check found: the policy, or why it could not be read; on a cluster, the reading of the
 * primaries that deserve a warning, if any, and how many of them (`where`).
 */
export type EvictionReading = ({ policy: string } | { unreadable: string }) & { where?: string };

/** Just the commands the check sends, so a spec can stand in for Redis. */
export type PolicySource = Pick<Redis, 'config' | 'info'>;

/** A cluster: each primary holds its own slots' keys and runs its own policy. */
export interface ClusterPolicySource {
  nodes(role: 'master'): PolicySource[];
}

/**
 * Reads Redis's maxmemory-policy: CONFIG GET first; managed Redis (ElastiCache, Memorystore, ...)
 * often disables CONFIG but answers INFO (ioredis's own ready check needs it), whose `memory`
 * section carries the same policy. Never throws: a refusal is a reading too.
 */
export async function readEvictionPolicy(redis: PolicySource): Promise<EvictionReading> {
  let configError: string;
  try {
    // ['maxmemory-policy', '<policy>'], or [] when the name is unknown.
    const reply: unknown = await redis.config('GET', 'maxmemory-policy');
    const policy: unknown = Array.isArray(reply) ? reply[1] : undefined;
    if (typeof policy === 'string' && policy !== '') return { policy };
    configError = 'no maxmemory-policy in the reply';
  } catch (error) {
    configError = messageOf(error);
  }
  try {
    const policy = /^maxmemory_policy:(\S+)/m.exec(await redis.info('memory'))?.[1];
    if (policy) return { policy };
    return { unreadable: `CONFIG GET: ${configError}; INFO: no maxmemory_policy line` };
  } catch (error) {
    return { unreadable: `CONFIG GET: ${configError}; INFO: ${messageOf(error)}` };
  }
}

/**
 * Every primary of a cluster read, since any one of them may evict the keys of its slots: the
 * first reading that deserves a warning, saying on how many primaries it was found, or the
 * primaries' one policy when none does.
 */
export async function readClusterEvictionPolicy(
  cluster: ClusterPolicySource,
): Promise<EvictionReading> {
  const primaries = cluster.nodes('master');
  if (primaries.length === 0) return { unreadable: 'the cluster named no primary yet' };
  const readings = await Promise.all(primaries.map(readEvictionPolicy));
  const warned = readings.filter((reading) => evictionWarning(reading) !== undefined);
  if (warned.length === 0) return readings[0];
  const same = warned.filter((reading) => keyOf(reading) === keyOf(warned[0])).length;
  const others = warned.length - same;
  const where =
    `on ${same} of ${primaries.length} primaries` +
    (others > 0 ? `; ${others} more run another policy than noeviction or cannot be read` : '');
  return { ...warned[0], where };
}

const keyOf = (reading: EvictionReading): string =>
  'policy' in reading ? reading.policy : `unreadable: ${reading.unreadable}`;

/** The warning a reading deserves, or undefined when Redis never evicts. */
export function evictionWarning(reading: EvictionReading): string | undefined {
  const fix = `run Redis with --maxmemory-policy noeviction and a maxmemory sized for them (${DOCS})`;
  const where = reading.where ? ` (${reading.where})` : '';
  if ('unreadable' in reading) {
    return (
      `Could not read Redis's maxmemory-policy${where} (${reading.unreadable}): transaction intents and ` +
      `pending webhook jobs live in Redis and any policy but noeviction can drop them under ` +
      `memory pressure; check the policy where Redis is configured and ${fix}`
    );
  }
  const { policy } = reading;
  if (policy === 'noeviction') return undefined;
  if (policy.startsWith('volatile-')) {
    return (
      `Redis's maxmemory-policy is ${policy}${where}: under memory pressure it evicts keys that carry a ` +
      `TTL, transaction intents among them (an evicted intent never settles nor sends its ` +
      `webhook); ${fix}`
    );
  }
  const scope = policy.startsWith('allkeys-') ? 'any key' : 'keys';
  return (
    `Redis's maxmemory-policy is ${policy}${where}: under memory pressure it evicts ${scope}, transaction ` +
    `intents, pending webhook jobs and BullMQ's own keys among them, and an evicted delivery is ` +
    `never retried; ${fix}`
  );
}

/**
 * Intents and webhook jobs share Redis with counters and cached results, so an evicting policy
 * loses them silently under load. Checked on every connection (a restarted or failed-over Redis
 * may run another policy) without holding anything up: the boot and requests never wait on it.
 * A reading is written once, and again only when it changes.
 */
export class EvictionPolicyCheck {
  private readonly logger = new Logger('Redis');
  private reported?: string;
  /** The latest check, settled once its line (if any) is written: what a test waits on. */
  latest?: Promise<EvictionReading>;

  check(redis: PolicySource | ClusterPolicySource): Promise<EvictionReading> {
    const reading = 'nodes' in redis ? readClusterEvictionPolicy(redis) : readEvictionPolicy(redis);
    this.latest = reading.then((reading) => {
      this.report(reading);
      return reading;
    });
    return this.latest;
  }

  private report(reading: EvictionReading): void {
    const key = `${'policy' in reading ? reading.policy : 'unreadable'} ${reading.where ?? ''}`;
    if (key === this.reported) return;
    this.reported = key;
    const warning = evictionWarning(reading);
    if (warning) this.logger.warn(warning);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
