import { jsonSafe } from './json-safe';

describe('jsonSafe', () => {
  it('turns bigints into decimal text and dates into ISO text, at any depth', () => {
    const value = {
      big: 2n ** 70n,
      when: new Date('2026-05-06T07:08:09.000Z'),
      nested: [{ n: -5n, plain: 1.5, text: 'x', flag: true, none: null }],
    };
    expect(jsonSafe(value)).toEqual({
      big: '1180591620717411303424',
      when: '2026-05-06T07:08:09.000Z',
      nested: [{ n: '-5', plain: 1.5, text: 'x', flag: true, none: null }],
    });
    expect(JSON.parse(JSON.stringify(jsonSafe(value)))).toEqual(jsonSafe(value));
  });

  it('follows toJSON and answers an invalid date as null, as JSON.stringify does', () => {
    const custom = { toJSON: () => ({ inner: 3n }) };
    expect(jsonSafe({ custom, bad: new Date(Number.NaN) })).toEqual({
      custom: { inner: '3' },
      bad: null,
    });
  });

  it('answers what needs no change as it is, and copies only what holds a conversion', () => {
    const plain = { a: 1, list: [1, 'x', { b: true }], none: null };
    expect(jsonSafe(plain)).toBe(plain);
    const mixed = { keep: { c: 2 }, list: [{ d: 1n }, { e: 1 }] };
    const safe = jsonSafe(mixed) as typeof mixed;
    expect(safe).not.toBe(mixed);
    expect(safe.keep).toBe(mixed.keep);
    expect(safe.list[1]).toBe(mixed.list[1]);
    expect(safe.list[0]).toEqual({ d: '1' });
    expect(mixed.list[0].d).toBe(1n); // the original is left untouched
  });

  it('turns a class instance into a plain object of its own fields, as JSON sees it', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: bigint,
      ) {}
    }
    const safe = jsonSafe(new Point(1, 2n));
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype);
    expect(safe).toEqual({ x: 1, y: '2' });
  });
});
