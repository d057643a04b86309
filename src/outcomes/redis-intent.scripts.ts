/**
 * The Lua scripts of RedisIntentStore. Each declares every key it touches (KEYS, with the
 * client's prefix), and the keys of one script share a hash tag (redis-intent.keys.ts), so each
 * runs on a Redis Cluster as on one server.
 */

/**
 * Home shard. KEYS: intent, schedule, claimed set. ARGV: JSON, retention ms, due at, id,
 * created at, '1' for a claimed user. Answers what it added: { to the schedule, to the claimed }.
 */
export const HOME_CREATE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local due = redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
local claimed = 0
if ARGV[6] == '1' then claimed = redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4]) end
return {due, claimed}`;

/**
 * Home shard. KEYS: intent, schedule, claimed set, outbox, outbox's schedule. ARGV: the version
 * read, the new JSON, retention ms, due at ('' : off the schedule), id, created at ('' : not open),
 * '1' for a claimed user (the claimed set follows its openness), a delivery id ('' : none) whose
 * outcome (ARGV[9]) enters the outbox with the transition, leased until ARGV[10].
 * Answers { 1 written / 0 another write won, schedule change, claimed change } (+1, -1 or 0).
 */
export const HOME_REPLACE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {0, 0, 0} end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
local due
if ARGV[4] == '' then due = -redis.call('ZREM', KEYS[2], ARGV[5])
else due = redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5]) end
local claimed = 0
if ARGV[7] == '1' then
  if ARGV[6] == '' then claimed = -redis.call('ZREM', KEYS[3], ARGV[5])
  else claimed = redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5]) end
end
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[8], ARGV[9])
  redis.call('ZADD', KEYS[5], ARGV[10], ARGV[8])
end
return {1, due, claimed}`;

/** Home shard. KEYS: schedule, claimed set. Drops ARGV[1]: { from the schedule, from claimed }. */
export const HOME_FORGET = `
return {redis.call('ZREM', KEYS[1], ARGV[1]), redis.call('ZREM', KEYS[2], ARGV[1])}`;

/**
 * User's slot. KEYS: the user's open set on the chain, from this origin, recent set. ARGV: created
 * at, id, retention ms, the per-user-and-origin bound, recent ones kept, '1' for a claimed user
 * (kept out of the recent set). Answers the ids past the bound, oldest first.
 */
export const USER_CREATE = `
for _, k in ipairs({KEYS[1], KEYS[2]}) do
  redis.call('ZADD', k, ARGV[1], ARGV[2])
  redis.call('PEXPIRE', k, ARGV[3])
end
if ARGV[6] ~= '1' then
  redis.call('ZADD', KEYS[3], ARGV[1], ARGV[2])
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[5]) - 1)
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if excess > 0 then return redis.call('ZRANGE', KEYS[2], 0, excess - 1) end
return {}`;

/**
 * Any one slot. KEYS: sets of one slot. ARGV: score, id, retention ms ('' : none). Adds the id to
 * each (and keeps each as long as an intent), answers the ids of the first past ARGV[4] (if
 * given), oldest first: a client's open set and its bound.
 */
export const INDEX_ADD = `
for _, k in ipairs(KEYS) do
  redis.call('ZADD', k, ARGV[1], ARGV[2])
  if ARGV[3] ~= '' then redis.call('PEXPIRE', k, ARGV[3]) end
end
if ARGV[4] and ARGV[4] ~= '' then
  local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
  if excess > 0 then return redis.call('ZRANGE', KEYS[1], 0, excess - 1) end
end
return {}`;

/** Any one slot. KEYS: sets of one slot. Removes the ids of ARGV from each. */
export const INDEX_REMOVE = `
for _, k in ipairs(KEYS) do redis.call('ZREM', k, unpack(ARGV)) end
return 0`;

/**
 * Chain's slot. KEYS: the chain's fencing token, its seen set. ARGV: the follower's token ('' :
 * not the follower's write), the block ('' : none), id. Refused (2) unless the token is still the
 * chain's latest; else the id enters the seen set at its block (before the intent's own write).
 */
export const CHAIN_SEEN = `
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[1] then return 2 end
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3]) end
return 1`;

/** Chain's slot. KEYS: the seen set. Drops the ids of ARGV[2..] still seen below block ARGV[1]. */
export const TRIM_SEEN = `
local below = tonumber(ARGV[1])
for i = 2, #ARGV do
  local block = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if block and tonumber(block) < below then redis.call('ZREM', KEYS[1], ARGV[i]) end
end
return 0`;

/** Takes the due ids and leases them, so replicas polling at once share the work. */
export const CLAIM_DUE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
return due`;

/** KEYS: a hash's binding. Taken for ARGV[1] when free (kept ARGV[2] ms); 1 when it is ARGV[1]'s. */
export const BIND_HASH = `
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then return 1 end
return 0`;

/** KEYS: a hash's binding. Freed only by the intent holding it. */
export const UNBIND_HASH = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Home shard. KEYS: the outbox, its schedule. Takes up to ARGV[3] entries whose lease ended by
 * ARGV[1], leased again until ARGV[2]: id, outcome, id, outcome… (ids whose entry is gone leave).
 */
export const OUTBOX_TAKE = `
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])) do
  local v = redis.call('HGET', KEYS[1], id)
  if v then
    redis.call('ZADD', KEYS[2], ARGV[2], id)
    out[#out + 1] = id
    out[#out + 1] = v
  else redis.call('ZREM', KEYS[2], id) end
end
return out`;

/** Home shard. KEYS: the outbox, its schedule. Removes a delivered entry. */
export const OUTBOX_DONE = `
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 0`;

/** The scripts by the command name ioredis's defineCommand gives each, and their key counts. */
export const SCRIPTS = {
  intentHomeCreate: { lua: HOME_CREATE, numberOfKeys: 3 },
  intentHomeReplace: { lua: HOME_REPLACE, numberOfKeys: 5 },
  intentHomeForget: { lua: HOME_FORGET, numberOfKeys: 2 },
  intentUserCreate: { lua: USER_CREATE, numberOfKeys: 3 },
  intentChainSeen: { lua: CHAIN_SEEN, numberOfKeys: 2 },
  intentTrimSeen: { lua: TRIM_SEEN, numberOfKeys: 1 },
  intentClaimDue: { lua: CLAIM_DUE, numberOfKeys: 1 },
  intentBindHash: { lua: BIND_HASH, numberOfKeys: 1 },
  intentUnbindHash: { lua: UNBIND_HASH, numberOfKeys: 1 },
  intentOutboxTake: { lua: OUTBOX_TAKE, numberOfKeys: 2 },
  intentOutboxDone: { lua: OUTBOX_DONE, numberOfKeys: 2 },
  // A fixed count of keys each: a cluster client's automatic pipelining routes a command by its
  // first argument, which would be the count for a script told its keys at each call.
  intentIndexAdd1: { lua: INDEX_ADD, numberOfKeys: 1 },
  intentIndexAdd2: { lua: INDEX_ADD, numberOfKeys: 2 },
  intentIndexRemove1: { lua: INDEX_REMOVE, numberOfKeys: 1 },
  intentIndexRemove2: { lua: INDEX_REMOVE, numberOfKeys: 2 },
} as const;

type Args = (string | number)[];
/** The scripts as ioredis's defineCommand adds them: EVALSHA, the source again on NOSCRIPT. */
export type Scripted = {
  [name in keyof typeof SCRIPTS]: (...args: Args) => Promise<unknown>;
};
