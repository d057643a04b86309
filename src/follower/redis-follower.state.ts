import type { RedisClient } from '../telemetry/redis/redis.provider';
import type { Hash } from 'viem';
import { type Fence, FencedError, type FollowerCursor, type FollowerState } from './follower-state';

/** Refused (0) unless the chain's latest fencing token (KEYS[3]) is the writer's (ARGV[4]). */
const FENCED = `
if redis.call('GET', KEYS[3]) ~= ARGV[4] then return 0 end`;

/** The cursor and the block's hash in one step; hashes older than the last `keep` go. */
const ADVANCE = `${FENCED}
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if redis.call('HLEN', KEYS[2]) > tonumber(ARGV[3]) + 8 then
  local oldest = tonumber(ARGV[1]) - tonumber(ARGV[3])
  for _, n in ipairs(redis.call('HKEYS', KEYS[2])) do
    if tonumber(n) <= oldest then redis.call('HDEL', KEYS[2], n) end
  end
end
return 1`;

/** Every hash above the block rewound to goes, and the cursor moves back to it. */
const REWIND = `${FENCED}
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2])
for _, n in ipairs(redis.call('HKEYS', KEYS[2])) do
  if tonumber(n) > tonumber(ARGV[1]) then redis.call('HDEL', KEYS[2], n) end
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/**
 * Renews the lease this owner holds (its token kept), or takes a free one with the next token of
 * KEYS[2], which only grows. The lease holds "<owner> <token>"; nil while another owner holds it.
 */
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder then
  local owner, token = string.match(holder, '^(%S+) (%d+)$')
  if owner ~= ARGV[1] then return false end
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(token)
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. token, 'PX', ARGV[2])
return token`;

const RELEASE = `
local holder = redis.call('GET', KEYS[1])
if holder and string.match(holder, '^(%S+) ') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * A version before hash tags kept a chain's keys as `follower:<chain>:<what>`: on one server (a
 * cluster never held them: their scripts span slots), the first lease of a chain moves them to
 * their tagged names, so an upgrade resumes from the cursor and the fencing token keeps growing.
 * KEYS: the old cursor, blocks, fence, then the new ones; a new key already there is kept.
 */
const ADOPT = `
for i = 1, 3 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    if redis.call('EXISTS', KEYS[i + 3]) == 0 then redis.call('RENAME', KEYS[i], KEYS[i + 3])
    else redis.call('DEL', KEYS[i]) end
  end
end
return 0`;

/**
 * A follower's place shared by the replicas, on the service's Redis client (its key prefix
 * applies): `follower:{chain:<id>}:cursor` ("<number> <hash>"), `…:blocks` (number → hash, the
 * last OUTCOME_REORG_DEPTH), `…:lease` (the replica that follows now, and its token), `…:fence`
 * (the latest token). Four keys a chain, whatever the traffic, all in the chain's hash slot (the
 * tag `{chain:<id>}`, which the chain's seen intents share), so each script holds on a Redis Cluster.
 */
export class RedisFollowerState implements FollowerState {
  private readonly adopted = new Set<number>();

  constructor(
    private readonly redis: RedisClient,
    /** Whether keys of the untagged layout may exist (one server, not a cluster). */
    private readonly legacy = true,
  ) {}

  async cursor(chainId: number): Promise<FollowerCursor | undefined> {
    const text = await this.redis.get(key(chainId, 'cursor'));
    if (!text) return undefined;
    const [number, hash] = text.split(' ');
    return { number: BigInt(number), hash: hash as Hash };
  }

  async advance(fence: Fence, cursor: FollowerCursor, keep: number): Promise<void> {
    const { chainId } = fence;
    const done = await this.redis.eval(
      ADVANCE,
      3,
      key(chainId, 'cursor'),
      key(chainId, 'blocks'),
      fenceKey(chainId),
      cursor.number.toString(),
      cursor.hash,
      keep,
      fence.token,
    );
    if (done !== 1) throw new FencedError(fence);
  }

  async hashAt(chainId: number, number: bigint): Promise<Hash | undefined> {
    const hash = await this.redis.hget(key(chainId, 'blocks'), number.toString());
    return (hash ?? undefined) as Hash | undefined;
  }

  async rewind(fence: Fence, to: FollowerCursor): Promise<void> {
    const { chainId } = fence;
    const done = await this.redis.eval(
      REWIND,
      3,
      key(chainId, 'cursor'),
      key(chainId, 'blocks'),
      fenceKey(chainId),
      to.number.toString(),
      to.hash,
      '',
      fence.token,
    );
    if (done !== 1) throw new FencedError(fence);
  }

  async lease(chainId: number, owner: string, ttlMs: number): Promise<Fence | undefined> {
    if (this.legacy && !this.adopted.has(chainId)) {
      const old = (what: string): string => `follower:${chainId}:${what}`;
      const keys = [old('cursor'), old('blocks'), old('fence')];
      const tagged = [key(chainId, 'cursor'), key(chainId, 'blocks'), fenceKey(chainId)];
      await this.redis.eval(ADOPT, 6, ...keys, ...tagged);
      this.adopted.add(chainId);
    }
    const token = await this.redis.eval(
      LEASE,
      2,
      key(chainId, 'lease'),
      fenceKey(chainId),
      owner,
      ttlMs,
    );
    return typeof token === 'number' ? { chainId, token } : undefined;
  }

  async release(chainId: number, owner: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, key(chainId, 'lease'), owner);
  }
}

/** A chain's hash tag: its follower's keys and its seen intents share one Redis Cluster slot. */
export const chainTag = (chainId: number): string => `{chain:${chainId}}`;

const key = (chainId: number, what: string): string => `follower:${chainTag(chainId)}:${what}`;

/**
 * The chain's latest fencing token: the cursor's writes here, and the intents' writes the follower
 * makes (src/outcomes' Redis store), check it in the same script.
 */
export const fenceKey = (chainId: number): string => key(chainId, 'fence');
