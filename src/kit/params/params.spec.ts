import type { ActionParameter } from '../../contract/action.types';
import { changesFixedValue, convertParam } from '../param-conversion';
import { toDate } from './datetime.kind';
import { integerKind, toBigInt } from './integer.kind';
import { bytesSize, integerRange, kindOf, typeProblem } from '.';

const param = (over: Partial<ActionParameter>): ActionParameter => ({
  name: 'p',
  label: 'P',
  type: 'string',
  ...over,
});

describe('type vocabulary', () => {
  it.each([
    'text',
    'string',
    'textarea',
    'email',
    'url',
    'bytes',
    'bytes1',
    'bytes32',
    'number',
    'datetime',
    'uint8',
    'uint256',
    'int8',
    'int256',
    'address',
    'boolean',
    'bool',
    'select',
    'radio',
    'file',
    'image',
  ])('knows %s', (type) => {
    expect(kindOf(type)).toBeDefined();
    expect(typeProblem(type)).toBeUndefined();
  });

  it.each([
    ['uint7', /Solidity integers are uint8…uint256/],
    ['int264', /Solidity integers/],
    ['uint0', /Solidity integers/],
    ['uint08', /Solidity integers/],
    ['bytes0', /fixed bytes are bytes1…bytes32/],
    ['bytes33', /fixed bytes are bytes1…bytes32/],
    ['bytes01', /fixed bytes/],
    ['integer', /unknown type "integer"/],
    ['constructor', /unknown type "constructor"/],
  ])('refuses %s', (type, problem) => {
    expect(kindOf(type)).toBeUndefined();
    expect(typeProblem(type)).toMatch(problem);
  });

  it('gives each integer width its Solidity range', () => {
    expect(integerRange('uint8')).toEqual({ min: 0n, max: 255n });
    expect(integerRange('int8')).toEqual({ min: -128n, max: 127n });
    expect(integerRange('uint256')?.max).toBe(2n ** 256n - 1n);
    expect(integerRange('int256')?.min).toBe(-(2n ** 255n));
    expect(bytesSize('bytes')).toBeNull();
    expect(bytesSize('bytes20')).toBe(20);
  });
});

describe('toBigInt', () => {
  it('reads whole-number text exactly, never through a float', () => {
    expect(toBigInt('9007199254740993')).toBe(9007199254740993n);
    expect(toBigInt(' -42 ')).toBe(-42n);
    expect(toBigInt('+0007')).toBe(7n);
    expect(toBigInt(12)).toBe(12n);
  });

  it.each([['1.5'], ['1e3'], ['0x10'], [''], [1.5], [2 ** 60], [true], [[1]]])(
    'leaves %j for the rules to refuse',
    (value) => {
      expect(toBigInt(value)).toBe(value);
    },
  );

  it('turns text longer than any type holds into a value as far out of range, at once', () => {
    const huge = toBigInt('9'.repeat(1_000_000)) as bigint;
    expect(huge > 2n ** 256n).toBe(true);
    expect((toBigInt(`-${'9'.repeat(1_000_000)}`) as bigint) < -(2n ** 256n)).toBe(true);
    expect(toBigInt(`${'0'.repeat(1_000)}5`)).toBe(5n);
  });

  it('checks bounds given as text beyond 2^53 and refuses those outside the type', () => {
    const uint64 = param({ type: 'uint64', min: '18446744073709551615', max: 2 ** 53 - 1 });
    expect(integerKind.check(uint64)).toEqual([
      'has min 18446744073709551615 greater than max 9007199254740991',
    ]);
    expect(integerKind.check(param({ type: 'int8', min: -129 }))).toEqual([
      'has a min of -129, outside the range of int8',
    ]);
  });
});

describe('toDate', () => {
  it.each([
    ['2025-06-01', '2025-06-01T00:00:00.000Z'],
    ['2025-06-01T12:30', '2025-06-01T12:30:00.000Z'],
    ['2025-06-01 12:30:15', '2025-06-01T12:30:15.000Z'],
    ['2025-06-01T12:30:15.123456Z', '2025-06-01T12:30:15.123Z'],
    ['2025-06-01T12:30:00-0530', '2025-06-01T18:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0050-01-01', '0050-01-01T00:00:00.000Z'],
    ['1748781000000', '2025-06-01T12:30:00.000Z'],
    ['-1000', '1969-12-31T23:59:59.000Z'],
  ])('reads %s', (text, iso) => {
    expect((toDate(text) as Date).toISOString()).toBe(iso);
  });

  it.each([
    ['2023-02-29'],
    ['2025-04-31'],
    ['2025-06-01T24:00'],
    ['2025-06-01T12:60'],
    ['2025-06-01T12:00+24:00'],
    ['2025-6-1'],
    ['June 1, 2025'],
    ['1e12'],
    [8.64e15 + 1],
    [1.5],
    ['9'.repeat(100)],
  ])('leaves %j for the rules to refuse', (value) => {
    expect(toDate(value)).toBe(value);
  });
});

describe('fixed values', () => {
  const fee = param({ type: 'uint256', fixed: true, value: '1000' });
  it('compares sent values with the declared one after conversion', () => {
    expect(changesFixedValue(fee, '1000')).toBe(false);
    expect(changesFixedValue(fee, 1000)).toBe(false);
    expect(changesFixedValue(fee, ' 01000 ')).toBe(false);
    expect(changesFixedValue(fee, undefined)).toBe(false);
    expect(changesFixedValue(fee, '')).toBe(false);
    expect(changesFixedValue(fee, '1001')).toBe(true);
    expect(changesFixedValue(fee, 'abc')).toBe(true);
  });

  it('compares dates by instant, whatever their notation', () => {
    const start = param({ type: 'datetime', fixed: true, value: '2025-01-01T00:00:00Z' });
    expect(changesFixedValue(start, '2025-01-01T01:00:00+01:00')).toBe(false);
    expect(changesFixedValue(start, Date.UTC(2025, 0, 1))).toBe(false);
    expect(changesFixedValue(start, '2025-01-02')).toBe(true);
  });

  it('converts a declared default like a sent value', () => {
    expect(convertParam(param({ type: 'uint256', value: '5' }), undefined)).toBe(5n);
    expect(convertParam(param({ type: 'datetime', value: 0 }), '')).toEqual(new Date(0));
  });
});
