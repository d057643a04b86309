import type { ParamSpec } from '../contract/action.types';
import { convertParam, isMissing, MAX_NUMERIC_TEXT, toNumber } from './param-conversion';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

const spec = (over: Partial<ParamSpec>): ParamSpec => ({ type: 'string', label: 'P', ...over });
const numeric = spec({
  type: 'select',
  options: [
    { label: 'One', value: 1 },
    { label: 'Two', value: 2 },
  ],
});
const textual = spec({
  type: 'radio',
  options: [
    { label: 'Ten', value: '10' },
    { label: 'Red', value: 'red' },
  ],
});

describe('isMissing', () => {
  it.each([[undefined], [null], [''], ['   '], ['\t\n']])('treats %j as missing', (value) => {
    expect(isMissing(value)).toBe(true);
  });

  it.each([[0], [false], ['0'], ['false'], [[]], [{}]])('treats %j as present', (value) => {
    expect(isMissing(value)).toBe(false);
  });
});

describe('toNumber', () => {
  it.each([
    ['1.5', 1.5],
    ['-2', -2],
    ['+3', 3],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['2.5E-1', 0.25],
    [' 42 ', 42],
  ])('reads numeric text %j as %p', (text, expected) => {
    expect(toNumber(text)).toBe(expected);
  });

  it.each([['abc'], ['1,5'], ['0x10'], ['Infinity'], ['NaN'], ['1 2'], ['-'], ['e5']])(
    'leaves non-numeric text %j untouched for validation to reject',
    (text) => {
      expect(toNumber(text)).toBe(text);
    },
  );

  it(`reads numeric text up to ${MAX_NUMERIC_TEXT} characters and leaves longer text as text`, () => {
    const longest = '1'.repeat(MAX_NUMERIC_TEXT);
    expect(toNumber(longest)).toBe(Number(longest));
    expect(toNumber(`${longest}1`)).toBe(`${longest}1`);
  });

  it('refuses a megabyte of digits ending in a letter without backtracking over it', () => {
    const hostile = `${'1'.repeat(1_048_576)}x`;
    expect(toNumber(hostile)).toBe(hostile);
    // Below the length cap, the pattern itself is linear: no split of the digits is retried.
    const capped = `${'9'.repeat(MAX_NUMERIC_TEXT - 1)}x`;
    expect(toNumber(capped)).toBe(capped);
  });

  it('leaves non-text values untouched', () => {
    expect(toNumber(7)).toBe(7);
    expect(toNumber(true)).toBe(true);
    const list = ['1'];
    expect(toNumber(list)).toBe(list);
  });
});

describe('convertParam', () => {
  it.each([[undefined], [null], [''], ['  ']])('returns the default for a missing %j', (value) => {
    expect(convertParam(spec({ type: 'number', value: 5 }), value)).toBe(5);
    expect(convertParam(spec({ type: 'number' }), value)).toBeUndefined();
  });

  it('converts numbers sent as text', () => {
    expect(convertParam(spec({ type: 'number' }), '1.5')).toBe(1.5);
    expect(convertParam(spec({ type: 'number' }), 2)).toBe(2);
    expect(convertParam(spec({ type: 'number' }), 'x')).toBe('x');
  });

  it.each([
    ['true', true],
    ['false', false],
    [' TRUE ', true],
    ['False', false],
    [true, true],
    [false, false],
  ])('converts the boolean %j to %p', (value, expected) => {
    expect(convertParam(spec({ type: 'boolean' }), value)).toBe(expected);
  });

  it.each([['yes'], ['1'], [1], [0]])('leaves the non-boolean %j for validation', (value) => {
    expect(convertParam(spec({ type: 'boolean' }), value)).toBe(value);
  });

  it('gives numeric option values their declared type', () => {
    expect(convertParam(numeric, '2')).toBe(2);
    expect(convertParam(numeric, ' 1 ')).toBe(1);
    expect(convertParam(numeric, 2)).toBe(2);
    expect(convertParam(numeric, '3')).toBe('3');
  });

  it('keeps text option values as text, even when sent as a number', () => {
    expect(convertParam(textual, 10)).toBe('10');
    expect(convertParam(textual, 'red')).toBe('red');
    expect(convertParam(textual, 'blue')).toBe('blue');
  });

  it('normalises addresses to their checksum form', () => {
    const address = spec({ type: 'address' });
    expect(convertParam(address, ADDRESS.toLowerCase())).toBe(ADDRESS);
    expect(convertParam(address, ` ${ADDRESS} `)).toBe(ADDRESS);
    expect(convertParam(address, '0x1234')).toBe('0x1234');
    const badChecksum = ADDRESS.replace('E0F', 'e0F');
    expect(convertParam(address, badChecksum)).toBe(badChecksum);
  });

  it('accepts an address written in capitals after 0x (EIP-55: one case carries no checksum)', () => {
    const address = spec({ type: 'address' });
    const mixed = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
    expect(convertParam(address, `0x${mixed.slice(2).toUpperCase()}`)).toBe(mixed);
  });

  it('turns numbers and booleans sent for text into text', () => {
    const text = spec({ type: 'string' });
    expect(convertParam(text, 12)).toBe('12');
    expect(convertParam(text, false)).toBe('false');
    expect(convertParam(text, 'as is')).toBe('as is');
  });

  it('leaves objects and arrays untouched for validation to reject', () => {
    const object = { a: 1 };
    for (const type of ['string', 'number', 'boolean', 'select', 'address'] as const) {
      expect(convertParam({ ...numeric, type }, object)).toBe(object);
    }
  });
});
