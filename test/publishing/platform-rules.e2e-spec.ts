import { createTestApp } from '../support/app.factory';
import { checkPlatformMetadata } from '../../src/publishing/platform-metadata';
import { actionWith, PLATFORM_RULE_CASES } from '../fixtures/platform-refusals.fixture';

/**
 * Issue 21: a declaration the platform's createMetadata would refuse (the whole mini-app with it)
 * stops the boot, naming the action, the parameter and the platform's rule; the same declaration
 * fixed boots, and what it publishes passes the one rule set every tool uses.
 */
describe("Publishing: the platform's rules, checked at boot", () => {
  it.each(PLATFORM_RULE_CASES.map((c) => [c.rule, c] as const))(
    'refuses %s at boot, then boots it fixed',
    async (_, { path, broken, fixed, message }) => {
      const boot = createTestApp({ actions: [actionWith(path, broken)] });
      await expect(boot).rejects.toThrow(`action "Rule ${path}" (${path}): parameter "p"`);
      await expect(boot).rejects.toThrow(message);

      const app = await createTestApp({ actions: [actionWith(path, fixed)] });
      try {
        const answer = await app.inject({ method: 'GET', url: path });
        expect(answer.statusCode).toBe(200);
        expect(checkPlatformMetadata(answer.json())).toEqual([]);
      } finally {
        await app.close();
      }
    },
  );

  it.each<[string, Parameters<typeof actionWith>[1], unknown]>([
    [
      'a datetime default as epoch milliseconds',
      { type: 'datetime', label: 'When', value: '2030-01-01T00:00:00Z' },
      Date.UTC(2030, 0, 1),
    ],
    ['a boolean default as a boolean', { type: 'boolean', label: 'On', value: 'true' }, true],
    [
      'a number default given as text as the number',
      { type: 'number', label: 'N', value: '12.5' },
      12.5,
    ],
  ])('publishes %s, in the form the platform accepts', async (_, spec, published) => {
    const app = await createTestApp({ actions: [actionWith('/api/rule-publish', spec)] });
    try {
      const document = (await app.inject({ method: 'GET', url: '/api/rule-publish' })).json();
      expect(document.actions[0].params[0].value).toEqual(published);
      expect(checkPlatformMetadata(document)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('publishes integer bounds that fit a JS number as numbers, larger ones as text', async () => {
    const spec = { type: 'uint256', label: 'A', min: '5', max: '10000000000000000000' } as const;
    const app = await createTestApp({ actions: [actionWith('/api/rule-big', spec)] });
    try {
      const document = (await app.inject({ method: 'GET', url: '/api/rule-big' })).json();
      expect(document.actions[0].params[0]).toMatchObject({ min: 5, max: '10000000000000000000' });
      expect(checkPlatformMetadata(document)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  describe('declared samples, checked at boot against their own declaration', () => {
    const tier = {
      type: 'select',
      label: 'Tier',
      options: [
        { label: 'One', value: 1 },
        { label: 'Two', value: 2 },
      ],
    } as const;

    it('refuses a sample value not among the options, naming the sample', async () => {
      const boot = createTestApp({
        actions: [
          actionWith('/api/rule-sample', tier, [{ params: { p: 1 } }, { params: { p: 3 } }]),
        ],
      });
      await expect(boot).rejects.toThrow(
        /action "Rule \/api\/rule-sample" \(\/api\/rule-sample\): sample 2 is refused by the action's own rules: p must be one of: 1, 2/,
      );
    });

    it('boots the same samples fixed', async () => {
      const samples = [{ params: { p: 1 } }, { params: { p: '2' } }];
      const app = await createTestApp({ actions: [actionWith('/api/rule-sample', tier, samples)] });
      expect((await app.inject({ method: 'GET', url: '/api/rule-sample' })).statusCode).toBe(200);
      await app.close();
    });
  });
});
