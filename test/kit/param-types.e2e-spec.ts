import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDeclaredParams } from '../../src/kit/action-param.decorator';
import { createTestApp, postJson } from '../support/app.factory';
import { EveryTypeModule, EveryTypeParams, type Typed } from '../fixtures/every-type.fixture';

const PATH = '/api/every-type';
const UINT256_MAX =
  '115792089237316195423570985008687907853269984665640564039457584007913129639935';
const HEX32 = `0x${'ab'.repeat(32)}`;

interface Envelope {
  success: boolean;
  error?: string;
  statusCode?: number;
  data?: Record<string, Typed> & { invalidParams?: string[] };
}

describe('Every platform parameter type (every-type action)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [EveryTypeModule] });
  });
  afterAll(() => app.close());

  const send = (params: Record<string, unknown>) =>
    postJson<Envelope>(app, PATH, { params: { title: 'hello', ...params } });

  /** Sends the values as a query string only, as the platform does for transaction actions. */
  const sendQuery = async (params: Record<string, string>) => {
    const query = new URLSearchParams({ title: 'hello', ...params }).toString();
    const response = await app.inject({ method: 'POST', url: `${PATH}?${query}` });
    return { status: response.statusCode, body: response.json<Envelope>() };
  };

  async function expectRefused(params: Record<string, unknown>, error: string): Promise<void> {
    const { status, body } = await send(params);
    expect({ status, error: body.error, success: body.success }).toEqual({
      status: 400,
      error,
      success: false,
    });
    expect(body.data?.invalidParams).toEqual([Object.keys(params)[0]]);
  }

  it('publishes every parameter exactly as declared', async () => {
    const response = await app.inject({ method: 'GET', url: PATH });
    const [action] = response.json<{ actions: { params: unknown[] }[] }>().actions;
    expect(action.params).toEqual(JSON.parse(JSON.stringify(getDeclaredParams(EveryTypeParams))));
    expect(action.params).toContainEqual({
      name: 'fee',
      type: 'uint256',
      label: 'Fee',
      fixed: true,
      value: '1000000000000000000000',
    });
  });

  describe('hands the service precisely typed values', () => {
    it.each<[string, Record<string, unknown>, string, Typed]>([
      ['text from a number', { title: 12345 }, 'title', { type: 'string', value: '12345' }],
      ['a trimmed e-mail', { email: ' ada@example.com ' }, 'email', s('ada@example.com')],
      [
        'an http(s) URL',
        { website: 'https://example.com/a?b=1' },
        'website',
        s('https://example.com/a?b=1'),
      ],
      ['bytes in lower case', { payload: '0xDEADbeef' }, 'payload', s('0xdeadbeef')],
      ['empty bytes', { payload: '0x' }, 'payload', s('0x')],
      ['bytes32', { salt: HEX32.toUpperCase().replace('0X', '0x') }, 'salt', s(HEX32)],
      ['bytes1', { tag: '0xff' }, 'tag', s('0xff')],
      [
        'an ISO date-time in UTC',
        { when: '2025-06-01T12:30:00Z' },
        'when',
        d('2025-06-01T12:30:00.000Z'),
      ],
      [
        'an ISO date-time with an offset',
        { when: '2025-06-01T12:30:00+02:00' },
        'when',
        d('2025-06-01T10:30:00.000Z'),
      ],
      [
        'an ISO date-time without offset, as UTC',
        { when: '2025-06-01T12:30' },
        'when',
        d('2025-06-01T12:30:00.000Z'),
      ],
      ['an ISO date', { when: '2025-06-01' }, 'when', d('2025-06-01T00:00:00.000Z')],
      ['epoch milliseconds', { when: 1748781000000 }, 'when', d('2025-06-01T12:30:00.000Z')],
      [
        'epoch milliseconds as text',
        { when: '1748781000000' },
        'when',
        d('2025-06-01T12:30:00.000Z'),
      ],
      ['the largest uint256 as text, exact', { amount: UINT256_MAX }, 'amount', b(UINT256_MAX)],
      ['a small uint256 as a JSON number', { amount: 42 }, 'amount', b('42')],
      ['a padded integer', { amount: ' 007 ' }, 'amount', b('7')],
      ['the smallest int16', { offset: '-32768' }, 'offset', b('-32768')],
      [
        'an int256 at its declared min',
        { delta: '-1000000000000000000000' },
        'delta',
        b('-1000000000000000000000'),
      ],
      ['a uint8 at its declared max', { level: '200' }, 'level', b('200')],
      ['bool as text', { agree: 'TRUE' }, 'agree', { type: 'boolean', value: true }],
      ['a radio option', { plan: 'pro' }, 'plan', s('pro')],
    ])('%s', async (_, params, name, expected) => {
      const { status, body } = await send(params);
      expect(status).toBe(200);
      expect(body.data?.[name]).toEqual(expected);
    });

    it('carries a uint256 beyond 2^53 exactly from the query string to the service', async () => {
      const { status, body } = await sendQuery({
        amount: UINT256_MAX,
        level: '7',
        when: '2024-02-29T23:59:59.999Z',
        salt: HEX32,
      });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({
        amount: b(UINT256_MAX),
        level: b('7'),
        when: d('2024-02-29T23:59:59.999Z'),
        salt: s(HEX32),
      });
    });

    it('hands fixed parameters their declared value when none is sent', async () => {
      const { body } = await send({});
      expect(body.data).toMatchObject({ network: s('fuji'), fee: b('1000000000000000000000') });
    });

    it('accepts a fixed value sent unchanged, in any of its text forms', async () => {
      const { status, body } = await sendQuery({
        network: 'fuji',
        fee: '0001000000000000000000000',
      });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ fee: b('1000000000000000000000') });
    });

    it('leaves absent optional parameters undefined', async () => {
      const { body } = await send({});
      expect(body.data?.amount).toEqual({ type: 'undefined', value: null });
    });
  });

  describe('refuses every invalid kind with its exact message', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['a missing required text', { title: null }, 'title is required'],
      ['text under minLength', { title: 'a' }, 'title must be at least 2 characters'],
      ['text over maxLength', { notes: 'x'.repeat(201) }, 'notes must be at most 200 characters'],
      ['an e-mail without @', { email: 'ada.example.com' }, 'email must be a valid email address'],
      ['an e-mail without domain', { email: 'ada@' }, 'email must be a valid email address'],
      ['an ftp URL', { website: 'ftp://example.com' }, 'website must be a valid URL'],
      ['a URL without scheme', { website: 'example.com' }, 'website must be a valid URL'],
      ['a javascript: URL', { website: 'javascript:alert(1)' }, 'website must be a valid URL'],
      ['half a byte', { payload: '0x123' }, 'payload must be 0x-prefixed hex of whole bytes'],
      ['hex without 0x', { payload: 'deadbeef' }, 'payload must be 0x-prefixed hex of whole bytes'],
      ['non-hex bytes', { payload: '0xzz' }, 'payload must be 0x-prefixed hex of whole bytes'],
      [
        'bytes over maxLength',
        { payload: `0x${'00'.repeat(65)}` },
        'payload must be at most 130 characters',
      ],
      ['bytes32 too short', { salt: '0x1234' }, 'salt must be 0x-prefixed hex of exactly 32 bytes'],
      [
        'bytes32 too long',
        { salt: `${HEX32}00` },
        'salt must be 0x-prefixed hex of exactly 32 bytes',
      ],
      ['empty bytes1', { tag: '0x' }, 'tag must be 0x-prefixed hex of exactly 1 byte'],
      ['a date that does not exist', { when: '2025-02-30' }, 'when must be a valid date'],
      ['a month 13', { when: '2025-13-01T00:00:00Z' }, 'when must be a valid date'],
      ['words for a date', { when: 'tomorrow' }, 'when must be a valid date'],
      ['epoch milliseconds past the Date range', { when: 9e15 }, 'when must be a valid date'],
      [
        'a date before min',
        { when: '2019-12-31T23:59:59Z' },
        'when must be at least 2020-01-01T00:00:00.000Z',
      ],
      ['a date after max', { when: '2031-01-01' }, 'when must be at most 2030-12-31T23:59:59.999Z'],
      ['a fraction', { amount: '1.5' }, 'amount must be a whole number'],
      ['an exponent', { amount: '1e3' }, 'amount must be a whole number'],
      ['a JSON fraction', { amount: 1.5 }, 'amount must be a whole number'],
      ['hex for an integer', { amount: '0x10' }, 'amount must be a whole number'],
      ['a negative uint', { amount: '-1' }, 'amount must be at least 0'],
      ['2^256', { amount: (2n ** 256n).toString() }, `amount must be at most ${UINT256_MAX}`],
      [
        'ten thousand digits',
        { amount: '9'.repeat(10_000) },
        `amount must be at most ${UINT256_MAX}`,
      ],
      [
        'ten thousand digits, negative',
        { offset: `-${'9'.repeat(10_000)}` },
        'offset must be at least -32768',
      ],
      ['a uint8 under its declared min', { level: '0' }, 'level must be at least 1'],
      ['a uint8 over its declared max', { level: '201' }, 'level must be at most 200'],
      ['an int16 over its range', { offset: '32768' }, 'offset must be at most 32767'],
      [
        'an int256 under its declared min',
        { delta: '-1000000000000000000001' },
        'delta must be at least -1000000000000000000000',
      ],
      ['a bool that is not true or false', { agree: 'yes' }, 'agree must be true or false'],
      ['a radio value outside the options', { plan: 'gold' }, 'plan must be one of: free, pro'],
      ['a changed fixed text', { network: 'mainnet' }, 'network cannot be changed'],
      ['a changed fixed uint256', { fee: '1' }, 'fee cannot be changed'],
      ['a fixed value sent as garbage', { fee: 'lots' }, 'fee cannot be changed'],
    ])('%s', async (_, params, error) => {
      await expectRefused(params, error);
    });

    it('refuses a JSON number past 2^53 rather than use its rounded value', async () => {
      const response = await app.inject({
        method: 'POST',
        url: PATH,
        headers: { 'content-type': 'application/json' },
        payload: '{"params":{"title":"hello","amount":123456789012345678901}}',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<Envelope>().error).toBe(
        'amount must be sent as text to be exact beyond 2^53',
      );
    });

    it('lists several problems in declaration order', async () => {
      const { body } = await send({ fee: '2', amount: '-5', email: 'x', title: 'a' });
      expect(body.error).toBe(
        'title must be at least 2 characters, email must be a valid email address, ' +
          'amount must be at least 0, fee cannot be changed',
      );
      expect(body.data?.invalidParams).toEqual(['title', 'email', 'amount', 'fee']);
    });
  });
});

function s(value: string): Typed {
  return { type: 'string', value };
}
function d(iso: string): Typed {
  return { type: 'Date', value: iso };
}
function b(decimal: string): Typed {
  return { type: 'bigint', value: decimal };
}
