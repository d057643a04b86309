import type { Redis } from 'ioredis';
import type { Hash } from 'viem';
import type { FollowerCursor, FollowerState } from './follower-state';

/** The cursor and the block's hash in one step; hashes older than the last `keep` go. */
const ADVANCE = `
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if redis.call('HLEN', KEYS[2]) > tonumber(ARGV[3]) + 8 then
  local oldest = tonumber(ARGV[1]) - tonumber(ARGV[3])
  for _, n in ipairs(redis.call('HKEYS', KEYS[2])) do
    if tonumber(n) <= oldest then redis.call('HDEL', KEYS[2], n) end
  end
end`;

/** Every hash above the block rewound to goes, and the cursor moves back to it. */
const REWIND = `
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2])
for _, n in ipairs(redis.call('HKEYS', KEYS[2])) do
  if tonumber(n) > tonumber(ARGV[1]) then redis.call('HDEL', KEYS[2], n) end
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])`;

/** Takes a free lease, or renews one this owner holds. */
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * A follower's place shared by the replicas, on the service's Redis client (its key prefix
 * applies): `follower:<chain>:cursor` ("<number> <hash>"), `follower:<chain>:blocks` (number →
 * hash, the last OUTCOME_REORG_DEPTH), `follower:<chain>:lease` (the replica that follows now).
 * Three keys a chain, whatever the traffic.
 */
export class RedisFollowerState implements FollowerState {
  constructor(private readonly redis: Redis) {}

  async cursor(chainId: number): Promise<FollowerCursor | undefined> {
    const text = await this.redis.get(key(chainId, 'cursor'));
    if (!text) return undefined;
    const [number, hash] = text.split(' ');
    return { number: BigInt(number), hash: hash as Hash };
  }

  async advance(chainId: number, cursor: FollowerCursor, keep: number): Promise<void> {
    await this.redis.eval(
      ADVANCE,
      2,
      key(chainId, 'cursor'),
      key(chainId, 'blocks'),
      cursor.number.toString(),
      cursor.hash,
      keep,
    );
  }

  async hashAt(chainId: number, number: bigint): Promise<Hash | undefined> {
    const hash = await this.redis.hget(key(chainId, 'blocks'), number.toString());
    return (hash ?? undefined) as Hash | undefined;
  }

  async rewind(chainId: number, to: FollowerCursor): Promise<void> {
    await this.redis.eval(
      REWIND,
      2,
      key(chainId, 'cursor'),
      key(chainId, 'blocks'),
      to.number.toString(),
      to.hash,
    );
  }

  async lease(chainId: number, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(LEASE, 1, key(chainId, 'lease'), owner, ttlMs)) === 1;
  }

  async release(chainId: number, owner: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, key(chainId, 'lease'), owner);
  }
}

const key = (chainId: number, what: string): string => `follower:${chainId}:${what}`;
