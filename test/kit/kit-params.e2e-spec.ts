import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, postJson } from '../support/app.factory';
import { ADDRESS, KitFixturesModule } from '../fixtures/kit.fixture';

const PATH = '/api/kitchen-sink';

/** A valid value for every kitchen-sink parameter. */
const VALID = {
  name: 'alice',
  amount: 2.5,
  tier: 2,
  colour: 'green',
  urgent: true,
  recipient: ADDRESS,
};

interface Envelope {
  success: boolean;
  error?: string;
  message?: string;
  statusCode?: number;
  data?: { params?: Record<string, unknown>; invalidParams?: string[] };
}

describe('Kit: parameter conversion and validation (kitchen-sink action)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [KitFixturesModule] });
  });
  afterAll(() => app.close());

  const send = (params: Record<string, unknown>) =>
    postJson<Envelope>(app, PATH, { params: { ...VALID, ...params } });

  /** Sends one parameter value and expects a 400 whose error is exactly `error`. */
  async function expectInvalid(params: Record<string, unknown>, error: string): Promise<Envelope> {
    const { status, body } = await send(params);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, statusCode: 400, error });
    expect(body.message).toEqual(expect.any(String));
    expect(body.message).not.toBe('');
    return body;
  }

  describe('conversion', () => {
    it('hands the handler typed values when every value arrives as text', async () => {
      const { status, body } = await send({
        name: 'bob',
        amount: '1.5',
        tier: '2',
        colour: 'red',
        urgent: 'false',
        recipient: ADDRESS.toLowerCase(),
      });
      expect(status).toBe(200);
      expect(body.data?.params).toEqual({
        name: 'bob',
        amount: 1.5,
        tier: 2,
        colour: 'red',
        urgent: false,
        recipient: ADDRESS,
        note: 'none',
        count: 5,
      });
    });

    it.each([
      ['"true"', 'true', true],
      ['"false"', 'false', false],
      ['"TRUE" (any case)', 'TRUE', true],
      ['a JSON true', true, true],
      ['a JSON false', false, false],
    ])('reads %s as a boolean', async (_, urgent, expected) => {
      const { body } = await send({ urgent });
      expect(body.data?.params?.urgent).toBe(expected);
    });

    it.each([
      ['"1.5"', '1.5', 1.5],
      ['" 7 " (padded)', ' 7 ', 7],
      ['"1e1"', '1e1', 10],
      ['"0"', '0', 0],
      ['a JSON number', 99.5, 99.5],
    ])('reads %s as a number', async (_, amount, expected) => {
      const { body } = await send({ amount });
      expect(body.data?.params?.amount).toBe(expected);
    });

    it.each([
      ['"2"', '2'],
      ['2', 2],
    ])('reads the numeric option %s as the option value 2', async (_, tier) => {
      const { body } = await send({ tier });
      expect(body.data?.params?.tier).toBe(2);
    });

    it('normalises an all-lowercase address to its checksum form', async () => {
      const { body } = await send({ recipient: ADDRESS.toLowerCase() });
      expect(body.data?.params?.recipient).toBe(ADDRESS);
    });

    it('keeps text parameters as text', async () => {
      const { body } = await send({ note: 'hello world' });
      expect(body.data?.params?.note).toBe('hello world');
    });

    it('applies defaults to optional parameters that are absent, null or blank', async () => {
      for (const missing of [{}, { note: null, count: null }, { note: '', count: '  ' }]) {
        const { status, body } = await send(missing);
        expect(status).toBe(200);
        expect(body.data?.params).toMatchObject({ note: 'none', count: 5 });
      }
    });

    it('prefers a sent value over the default', async () => {
      const { body } = await send({ note: 'mine', count: '3' });
      expect(body.data?.params).toMatchObject({ note: 'mine', count: 3 });
    });

    it('ignores parameters the action does not declare', async () => {
      const { status, body } = await send({ extra: 'x', constructor: 'y' });
      expect(status).toBe(200);
      expect(Object.keys(body.data?.params ?? {}).sort()).toEqual(
        [...Object.keys(VALID), 'note', 'count'].sort(),
      );
    });

    it('ignores a __proto__ key rather than polluting the parameters', async () => {
      const params = JSON.stringify(VALID).replace('{', '{"__proto__":{"polluted":true},');
      const response = await app.inject({
        method: 'POST',
        url: PATH,
        headers: { 'content-type': 'application/json' },
        payload: `{"params":${params}}`,
      });
      expect(response.statusCode).toBe(200);
      const echoed = response.json<Envelope>().data?.params;
      expect(echoed).toMatchObject(VALID);
      expect(echoed).not.toHaveProperty('polluted');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('error messages, exactly as issue 2 lists them', () => {
    it.each([
      ['absent', undefined],
      ['null', null],
      ['blank text', '   '],
    ])('"<name> is required" when a required value is %s', async (_, amount) => {
      const body = await expectInvalid({ amount }, 'amount is required');
      expect(body.data?.invalidParams).toEqual(['amount']);
    });

    it.each([['abc'], ['1.2.3'], ['0x10'], ['Infinity'], [true], [[1]], [{ n: 1 }]])(
      '"<name> must be a valid number" for %j',
      async (amount) => {
        const body = await expectInvalid({ amount }, 'amount must be a valid number');
        expect(body.data?.invalidParams).toEqual(['amount']);
      },
    );

    it('"<name> must be at least <min>"', async () => {
      await expectInvalid({ amount: '-0.5' }, 'amount must be at least 0');
    });

    it('"<name> must be at most <max>"', async () => {
      await expectInvalid({ amount: 100.5 }, 'amount must be at most 100');
    });

    it('rejects a number off its step, naming the parameter', async () => {
      const { status, body } = await send({ amount: 0.3 });
      expect(status).toBe(400);
      expect(body.error).toMatch(/^amount /);
      expect(body.data?.invalidParams).toEqual(['amount']);
    });

    it.each([['4'], [4], ['two'], [true]])(
      '"<name> must be one of: <v1>, <v2>, ..." for a select value %j',
      async (tier) => {
        await expectInvalid({ tier }, 'tier must be one of: 1, 2, 3');
      },
    );

    it('"<name> must be one of: ..." for a radio value', async () => {
      const body = await expectInvalid({ colour: 'blue' }, 'colour must be one of: red, green');
      expect(body.message).toContain('blue');
    });

    it.each([
      ['too short', '0x1234'],
      ['not hex', '0xZZ908400098527886E0F7030069857D2E4169EE7'],
      ['without 0x', '52908400098527886E0F7030069857D2E4169EE7'],
      ['with a wrong mixed-case checksum', '0x52908400098527886e0F7030069857D2E4169EE7'],
      ['a number', 12345],
    ])('"<name> must be a valid address" for an address %s', async (_, recipient) => {
      await expectInvalid({ recipient }, 'recipient must be a valid address');
    });

    it.each([
      ['yes', 'yes'],
      ['1', 1],
    ])('rejects the boolean value %s, naming the parameter', async (_, urgent) => {
      const { status, body } = await send({ urgent });
      expect(status).toBe(400);
      expect(body.error).toMatch(/^urgent /);
      expect(body.data?.invalidParams).toEqual(['urgent']);
    });

    it.each([
      ['shorter than minLength', 'a'],
      ['longer than maxLength', 'abcdefghijk'],
      ['not matching the pattern', 'Alice1'],
    ])('rejects text %s, naming the parameter', async (_, name) => {
      const { status, body } = await send({ name });
      expect(status).toBe(400);
      expect(body.error).toMatch(/^name /);
      expect(body.data?.invalidParams).toEqual(['name']);
    });

    it('joins several problems with ", " and names each failing parameter', async () => {
      const { status, body } = await postJson<Envelope>(app, PATH, {
        params: { ...VALID, name: undefined, amount: 'lots', tier: 7, count: 10 },
      });
      expect(status).toBe(400);
      expect(body.error).toBe(
        'name is required, amount must be a valid number, tier must be one of: 1, 2, 3, ' +
          'count must be at most 9',
      );
      expect(body.data?.invalidParams).toEqual(['name', 'amount', 'tier', 'count']);
    });

    it('lists every required parameter when the body is empty', async () => {
      const { status, body } = await postJson<Envelope>(app, PATH, { params: {} });
      expect(status).toBe(400);
      expect(body.error).toBe(
        ['name', 'amount', 'tier', 'colour', 'urgent', 'recipient']
          .map((name) => `${name} is required`)
          .join(', '),
      );
      expect(body.data?.invalidParams).toEqual([
        'name',
        'amount',
        'tier',
        'colour',
        'urgent',
        'recipient',
      ]);
    });
  });
});
