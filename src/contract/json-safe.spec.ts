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
});
