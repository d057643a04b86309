import { compilePattern, PATTERN_INPUT_MAX, patternProblem } from './text-pattern';

describe('compilePattern', () => {
  it('matches like RegExp.test for the patterns teams declare', () => {
    const amount = compilePattern('^(\\d*[1-9]\\d*(\\.\\d*)?|\\d*\\.\\d*[1-9]\\d*)$');
    expect(['1', '0.5', '12.30', '.5'].map(amount)).toEqual([true, true, true, true]);
    expect(['0', '0.0', 'abc', '', '1.2.3'].map(amount)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(compilePattern('[a-z]+')('123abc')).toBe(true);
  });

  it('runs a catastrophic pattern on hostile input in linear time, where RegExp would backtrack for hours', () => {
    const nested = compilePattern('^(a+)+$');
    expect(nested(`${'a'.repeat(5_000)}!`)).toBe(false);
    expect(nested('a'.repeat(5_000))).toBe(true);
  });

  it(`fails text longer than ${PATTERN_INPUT_MAX} characters without reading it`, () => {
    const any = compilePattern('^a*$');
    expect(any('a'.repeat(PATTERN_INPUT_MAX))).toBe(true);
    expect(any('a'.repeat(PATTERN_INPUT_MAX + 1))).toBe(false);
  });
});

describe('patternProblem', () => {
  it('accepts an RE2 pattern and names why another cannot run', () => {
    expect(patternProblem('^\\w{1,8}$')).toBeUndefined();
    expect(patternProblem('(a)\\1')).toMatch(
      /^has an invalid pattern \(.*\\1.*\); patterns run on RE2/,
    );
  });
});
