import fc from 'fast-check';
import { normalizeKeyText } from './cache-key';

describe('normalizeKeyText', () => {
  it.each([
    ['  PARIS ', 'paris'],
    ['Paris', 'paris'],
    ['ＰＡＲＩＳ', 'paris'],
    ['New \t  York\n', 'new york'],
    ['São\u00a0Paulo', 'são paulo'],
    ['Sa\u0303o Paulo', 'são paulo'],
    ['ﬁnland', 'finland'],
    ['MÜNCHEN', 'münchen'],
  ])('turns %j into %j', (input, expected) => {
    expect(normalizeKeyText(input)).toBe(expected);
  });

  it('is idempotent: the form sent upstream is the form cached under', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const once = normalizeKeyText(text);
        expect(normalizeKeyText(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('never leaves edge or repeated whitespace', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const key = normalizeKeyText(text);
        expect(key).toBe(key.trim());
        expect(key).not.toMatch(/\s\s/);
      }),
      { numRuns: 2000 },
    );
  });
});
