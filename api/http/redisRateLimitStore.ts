import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimitRequest, RateLimitStore } from './rateLimitStore.ts';

export interface RedisRateLimitStoreOptions {
  /** Prefix of every key; one per deployment (and per test) keeps budgets apart. */
  readonly keyPrefix?: string;
}

const COMMAND = 'federationRateLimitConsume';

/**
 * The memory store's sliding window, one step per request, run inside Redis so that reading the
 * window, deciding and counting are one atomic round trip (EVALSHA) whatever the number of API
 * instances. A client is a hash: field `l` the newest second counted, one field per epoch second
 * holding that second's count. Seconds that left the window are deleted on the next request and
 * the key expires a window after its last request, so idle clients vanish. The instant comes
 * from the instance (`nowMs`), as in the memory store: the same sequence of requests gets the
 * same decisions, and a clock that steps back keeps counting in the newest second. (One
 * difference: the memory store sweeps a client idle for a window by the newest instant any
 * client brought, so if that client then comes back with a clock behind it, the memory store
 * starts it afresh where Redis still holds its counts; Redis is the stricter.)
 */
const CONSUME_LUA = `
local second = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local flat = redis.call('HGETALL', KEYS[1])
local last = nil
local seconds = {}
for i = 1, #flat, 2 do
  if flat[i] == 'l' then last = tonumber(flat[i + 1]) else seconds[#seconds + 1] = { tonumber(flat[i]), tonumber(flat[i + 1]) } end
end
local now = second
if last ~= nil and second <= last then now = last end
local total = 0
local oldest = nil
local stale = {}
for _, entry in ipairs(seconds) do
  if entry[1] <= now - window then
    stale[#stale + 1] = entry[1]
  else
    total = total + entry[2]
    if oldest == nil or entry[1] < oldest then oldest = entry[1] end
  end
end
if #stale > 0 then redis.call('HDEL', KEYS[1], unpack(stale)) end
local allowed = 0
local remaining = 0
if total < limit then
  redis.call('HINCRBY', KEYS[1], now, 1)
  allowed = 1
  remaining = limit - total - 1
  if oldest == nil then oldest = now end
end
redis.call('HSET', KEYS[1], 'l', now)
redis.call('PEXPIRE', KEYS[1], window * 1000)
local reset = window
if oldest ~= nil then reset = oldest + window - now end
return { allowed, remaining, reset }
`;

type ConsumeCommand = (key: string, second: number, limit: number, windowSeconds: number) => Promise<unknown>;

/** A shared RateLimitStore on Redis: one budget per client across all API instances. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #consume: ConsumeCommand;
  readonly #keyPrefix: string;

  constructor(redis: Redis, options: RedisRateLimitStoreOptions = {}) {
    this.#keyPrefix = options.keyPrefix ?? 'federation-read:rate-limit:';
    // ioredis sends EVALSHA and, after a Redis restart emptied the script cache, EVAL once.
    if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { lua: CONSUME_LUA, numberOfKeys: 1 });
    const command = (redis as unknown as Record<string, ConsumeCommand>)[COMMAND];
    if (typeof command !== 'function') throw new Error(`ioredis did not define ${COMMAND}`);
    this.#consume = command.bind(redis);
  }

  async consume(request: RateLimitRequest): Promise<RateLimitDecision> {
    if (!Number.isInteger(request.windowSeconds) || request.windowSeconds < 1)
      throw new RangeError('windowSeconds must be a positive integer');
    if (!Number.isInteger(request.limit) || request.limit < 1) throw new RangeError('limit must be a positive integer');
    const second = Math.floor(request.nowMs / 1000);
    const reply = await this.#consume(this.#keyPrefix + request.key, second, request.limit, request.windowSeconds);
    if (!Array.isArray(reply) || reply.length !== 3 || !reply.every((n) => typeof n === 'number')) {
      throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
    }
    const [allowed, remaining, resetSeconds] = reply as [number, number, number];
    return { allowed: allowed === 1, remaining, resetSeconds };
  }
}
