/**
 * The Lua scripts of RedisIntentStore: each write keeps an intent and its three indexes in step
 * in one step. Keys passed as KEYS carry the client's prefix; intent keys a script reads by id
 * are built from ARGV[1], the prefix itself.
 */

/**
 * KEYS: intent, schedule, user's open set, user's recent set (signed-in answers only, newest
 * ARGV[8] kept), user's open set from this origin, the client's open set, the claimed open set.
 * ARGV[9] is '1' for a claimed user. Refused (nil) at the total bound of open intents, or of
 * claimed ones (ARGV[10]). Returns the ids past the per-user-and-origin bound (ARGV[6]) and, for a
 * claimed one, past the per-client bound (ARGV[11]), oldest first.
 */
export const CREATE = `
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then return false end
local claimed = ARGV[9] == '1'
if claimed and redis.call('ZCARD', KEYS[7]) >= tonumber(ARGV[10]) then return false end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
for _, k in ipairs({KEYS[3], KEYS[5]}) do
  redis.call('ZADD', k, ARGV[5], ARGV[4])
  redis.call('PEXPIRE', k, ARGV[2])
end
if not claimed then
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[4])
  redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -tonumber(ARGV[8]) - 1)
  redis.call('PEXPIRE', KEYS[4], ARGV[2])
end
local out = {}
local excess = redis.call('ZCARD', KEYS[5]) - tonumber(ARGV[6])
if excess > 0 then out = redis.call('ZRANGE', KEYS[5], 0, excess - 1) end
if claimed then
  redis.call('ZADD', KEYS[6], ARGV[5], ARGV[4])
  redis.call('PEXPIRE', KEYS[6], ARGV[2])
  redis.call('ZADD', KEYS[7], ARGV[5], ARGV[4])
  excess = redis.call('ZCARD', KEYS[6]) - tonumber(ARGV[11])
  if excess > 0 then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[6], 0, excess - 1)) do out[#out + 1] = id end
  end
end
return out`;

/**
 * KEYS: intent, schedule, user's open set, chain's seen set, user's open set from its origin, its
 * client's open set, the claimed open set, the outbox, the outbox's schedule. An empty ARGV
 * leaves an index; ARGV[8] is '1' for a claimed user (its client's and the claimed sets follow its
 * openness); ARGV[9], when set, is a delivery id whose outcome (ARGV[10]) enters the outbox with
 * the transition, leased until ARGV[11]. With ARGV[12] (a follower's fencing token), refused (2)
 * unless it is still the chain's latest (KEYS[10]).
 */
export const REPLACE = `
if ARGV[12] ~= '' and redis.call('GET', KEYS[10]) ~= ARGV[12] then return 2 end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if ARGV[4] == '' then redis.call('ZREM', KEYS[2], ARGV[5])
else redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5]) end
local open = {KEYS[3], KEYS[5]}
if ARGV[8] == '1' then open[3] = KEYS[6]; open[4] = KEYS[7] end
for i, k in ipairs(open) do
  if ARGV[6] == '' then redis.call('ZREM', k, ARGV[5])
  else
    redis.call('ZADD', k, ARGV[6], ARGV[5])
    if i ~= 4 then redis.call('PEXPIRE', k, ARGV[3]) end
  end
end
if ARGV[7] == '' then redis.call('ZREM', KEYS[4], ARGV[5])
else redis.call('ZADD', KEYS[4], ARGV[7], ARGV[5]) end
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[8], ARGV[9], ARGV[10])
  redis.call('ZADD', KEYS[9], ARGV[11], ARGV[9])
end
return 1`;

/** Takes the due ids and leases them, so replicas polling at once share the work. */
export const CLAIM_DUE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
return due`;

/** KEYS: users' open sets. The intents they name; ids whose intent is gone leave the set. */
export const OPEN_OF = `
local out = {}
for i = 1, #KEYS do
  for _, id in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
    local v = redis.call('GET', ARGV[1] .. 'intent:' .. id)
    if v then out[#out + 1] = v else redis.call('ZREM', KEYS[i], id) end
  end
end
return out`;

/** KEYS: a user's recent set. Its newest ARGV[2] intents; ids whose intent is gone leave it. */
export const RECENT_OF = `
local out = {}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)) do
  local v = redis.call('GET', ARGV[1] .. 'intent:' .. id)
  if v then out[#out + 1] = v else redis.call('ZREM', KEYS[1], id) end
end
return out`;

/** KEYS: a chain's seen set. The intents seen at block ARGV[2] or above. */
export const SEEN_FROM = `
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[2], '+inf')) do
  local v = redis.call('GET', ARGV[1] .. 'intent:' .. id)
  if v then out[#out + 1] = v else redis.call('ZREM', KEYS[1], id) end
end
return out`;

/** KEYS: a chain's seen set. Drops those below block ARGV[2] that are settled (or gone). */
export const TRIM_SEEN = `
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2])) do
  local v = redis.call('GET', ARGV[1] .. 'intent:' .. id)
  local open = v and (string.find(v, '"status":"answered"', 1, true)
    or string.find(v, '"status":"submitted"', 1, true))
  if not open then redis.call('ZREM', KEYS[1], id) end
end
return 0`;

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
 * KEYS: the outbox, its schedule. Takes up to ARGV[3] entries whose lease ended by ARGV[1],
 * leased again until ARGV[2]: id, outcome, id, outcome… (ids whose entry is gone leave).
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
