import { maxUint256 } from 'viem';
import { ActionException } from '../../contract/action.exception';
import { formatAmount, fromBaseUnits, POSITIVE_DECIMAL_PATTERN, toBaseUnits } from './amounts';

const unit = (decimals: number, symbol = 'TKN') => ({ param: 'amount', symbol, decimals });

function refusal(run: () => unknown): { status: number; error: string; code?: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ActionException) {
      return { status: error.getStatus(), error: error.error, code: error.details.code };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('toBaseUnits', () => {
  it.each([
    ['1', 18, 10n ** 18n],
    ['0.1', 18, 10n ** 17n],
    ['1.5', 6, 1_500_000n],
    ['0.000001', 6, 1n],
    ['12.345678', 6, 12_345_678n],
    ['.5', 6, 500_000n],
    ['5.', 6, 5_000_000n],
    [' 2.25 ', 2, 225n],
    ['007.50', 2, 750n],
    ['1.500000000', 6, 1_500_000n],
    ['3.0', 0, 3n],
  ])('converts %p with %i decimals to %p base units', (text, decimals, expected) => {
    expect(toBaseUnits(text, unit(decimals))).toBe(expected);
  });

  it('keeps every digit a float would lose', () => {
    // 2^53 + 1 and a 27-digit amount: Number() rounds both.
    expect(toBaseUnits('9007199254740993', unit(0))).toBe(9_007_199_254_740_993n);
    expect(BigInt(Number('9007199254740993'))).not.toBe(9_007_199_254_740_993n);
    expect(toBaseUnits('123456789.123456789123456789', unit(18))).toBe(
      123_456_789_123_456_789_123_456_789n,
    );
    expect(toBaseUnits('0.3', unit(18))).toBe(300_000_000_000_000_000n);
  });

  it('accepts the largest uint256 and refuses one more, naming the parameter', () => {
    expect(toBaseUnits(maxUint256.toString(), unit(0))).toBe(maxUint256);
    expect(refusal(() => toBaseUnits((maxUint256 + 1n).toString(), unit(0)))).toEqual({
      status: 400,
      error: 'amount is too large',
      code: 'VALIDATION_ERROR',
    });
  });

  it.each([
    ['1.0000001', 6, 'amount has 7 decimal places; USDC has 6'],
    ['0.0000000000000000001', 18, 'amount has 19 decimal places; USDC has 18'],
    ['1.5', 0, 'amount has 1 decimal places; USDC has 0'],
  ])('refuses %p with %i decimals as too precise', (text, decimals, message) => {
    expect(refusal(() => toBaseUnits(text, unit(decimals, 'USDC')))).toEqual({
      status: 400,
      error: message,
      code: 'VALIDATION_ERROR',
    });
  });

  it.each([['0'], ['0.0'], ['000.000'], ['.0']])('refuses zero (%p)', (text) => {
    expect(refusal(() => toBaseUnits(text, unit(18))).error).toBe(
      'amount is zero; enter a positive amount',
    );
  });

  it.each([[''], ['.'], ['abc'], ['1e5'], ['-1'], ['+1'], ['1,5'], ['0x10'], ['1.2.3'], ['١']])(
    'refuses %p as not a decimal amount',
    (text) => {
      expect(refusal(() => toBaseUnits(text, unit(18))).error).toBe(
        'amount is not a decimal amount',
      );
    },
  );
});

describe('POSITIVE_DECIMAL_PATTERN', () => {
  const pattern = new RegExp(POSITIVE_DECIMAL_PATTERN);

  it.each([['1'], ['0.5'], ['.5'], ['5.'], ['00.01'], ['12.500']])('accepts %p', (text) => {
    expect(pattern.test(text)).toBe(true);
  });

  it.each([['0'], ['0.0'], ['.'], [''], ['-1'], ['1e5'], ['1,5'], ['0x1']])(
    'refuses %p before the request reaches the action',
    (text) => {
      expect(pattern.test(text)).toBe(false);
    },
  );
});

describe('fromBaseUnits', () => {
  it('writes base units back as decimal text', () => {
    expect(fromBaseUnits(12_345_678n, 6)).toBe('12.345678');
    expect(fromBaseUnits(10n ** 18n, 18)).toBe('1');
    expect(fromBaseUnits(1n, 18)).toBe('0.000000000000000001');
  });
});

describe('formatAmount', () => {
  it.each<[bigint, number, string]>([
    [1_000_000_000n, 6, '1,000'],
    [1_234_567_890_123n, 6, '1,234,567.890123'],
    [1n, 18, '0.000000000000000001'],
    [0n, 6, '0'],
  ])('%p base units of %p decimals read %p', (units, decimals, text) => {
    expect(formatAmount(units, decimals)).toBe(text);
  });
});
