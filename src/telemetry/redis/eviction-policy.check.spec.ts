import { Logger } from '@nestjs/common';
import {
  EvictionPolicyCheck,
  evictionWarning,
  type PolicySource,
  readClusterEvictionPolicy,
  readEvictionPolicy,
} from './eviction-policy.check';

/** A Redis answering CONFIG GET and INFO as told: a value, or an error to throw. */
function redis(config: unknown, info: unknown): PolicySource {
  const answer = (value: unknown): Promise<never> =>
    value instanceof Error ? Promise.reject(value) : Promise.resolve(value as never);
  return { config: () => answer(config), info: () => answer(info) };
}

const info = (policy: string): string =>
  `# Memory\r\nused_memory:1\r\nmaxmemory_policy:${policy}\r\n`;

describe('readEvictionPolicy', () => {
  it('reads CONFIG GET, else the memory section of INFO, else says why it could not', async () => {
    expect(await readEvictionPolicy(redis(['maxmemory-policy', 'noeviction'], ''))).toEqual({
      policy: 'noeviction',
    });
    const disabled = new Error("ERR unknown command 'CONFIG'");
    expect(await readEvictionPolicy(redis(disabled, info('volatile-lru')))).toEqual({
      policy: 'volatile-lru',
    });
    expect(await readEvictionPolicy(redis(disabled, new Error('NOPERM info')))).toEqual({
      unreadable: "CONFIG GET: ERR unknown command 'CONFIG'; INFO: NOPERM info",
    });
  });
});

describe('readClusterEvictionPolicy', () => {
  const policy = (name: string): PolicySource => redis(['maxmemory-policy', name], '');

  it('reads every primary and warns of the one that evicts, saying on how many it was found', async () => {
    const reading = await readClusterEvictionPolicy({
      nodes: () => [policy('noeviction'), policy('allkeys-lru'), policy('noeviction')],
    });
    expect(reading).toEqual({ policy: 'allkeys-lru', where: 'on 1 of 3 primaries' });
    expect(evictionWarning(reading)).toMatch(
      /^Redis's maxmemory-policy is allkeys-lru \(on 1 of 3 primaries\): under memory pressure/,
    );
  });

  it('counts the primaries of the policy it names, and says when others differ', async () => {
    const reading = await readClusterEvictionPolicy({
      nodes: () => [policy('volatile-lru'), policy('allkeys-lru'), policy('volatile-lru')],
    });
    expect(reading).toEqual({
      policy: 'volatile-lru',
      where: 'on 2 of 3 primaries; 1 more run another policy than noeviction or cannot be read',
    });
  });

  it("is the primaries' one policy when none evicts, and unreadable before the slot map", async () => {
    const fine = await readClusterEvictionPolicy({
      nodes: () => [policy('noeviction'), policy('noeviction')],
    });
    expect([fine, evictionWarning(fine)]).toEqual([{ policy: 'noeviction' }, undefined]);
    expect(await readClusterEvictionPolicy({ nodes: () => [] })).toEqual({
      unreadable: 'the cluster named no primary yet',
    });
  });
});

describe('evictionWarning', () => {
  it('is silent for noeviction only, and names what each policy loses', () => {
    expect(evictionWarning({ policy: 'noeviction' })).toBeUndefined();
    expect(evictionWarning({ policy: 'allkeys-lfu' })).toMatch(
      /evicts any key, transaction intents, pending webhook jobs/,
    );
    expect(evictionWarning({ policy: 'volatile-ttl' })).toMatch(
      /keys that carry a TTL, transaction intents/,
    );
    expect(evictionWarning({ unreadable: 'x' })).toMatch(
      /^Could not read Redis's maxmemory-policy \(x\)/,
    );
  });
});

describe('EvictionPolicyCheck', () => {
  it('writes a reading once, and again when it changes (a restarted Redis)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const check = new EvictionPolicyCheck();
    await check.check(redis(['maxmemory-policy', 'allkeys-lru'], ''));
    await check.check(redis(['maxmemory-policy', 'allkeys-lru'], ''));
    expect(warn).toHaveBeenCalledTimes(1);
    await check.check(redis(['maxmemory-policy', 'noeviction'], ''));
    await check.check(redis(['maxmemory-policy', 'allkeys-lru'], ''));
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
