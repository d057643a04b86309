import { formatUnits, maxUint256, parseUnits } from 'viem';
import { invalidParams } from '../../contract/action.exception';

/**
 * Declared as a string parameter's `pattern`: a decimal with at least one non-zero digit, so
 * forms refuse "0" before sending. Amounts stay text until `toBaseUnits` converts them exactly.
 */
export const POSITIVE_DECIMAL_PATTERN = '^(\\d*[1-9]\\d*(\\.\\d*)?|\\d*\\.\\d*[1-9]\\d*)$';

/** Digits with an optional fraction; either side may be empty ("5.", ".5"), not both. */
const DECIMAL_TEXT = /^(\d*)(?:\.(\d*))?$/;

/**
 * How an amount converts: the token's symbol and decimals, and the parameter it came in, so an
 * amount too precise or too large is a 400 naming that parameter.
 */
export interface AmountUnit {
  /** The parameter the amount came in, named in every error. */
  param: string;
  symbol: string;
  decimals: number;
}

/**
 * Converts a decimal amount typed by a user ("12.5") to the token's base units, exactly: the
 * text goes to viem's parseUnits, never through a float. Zero, more decimal places than the token
 * has (trailing zeros aside), and amounts beyond uint256 are 400s naming the parameter.
 */
export function toBaseUnits(text: string, { param, symbol, decimals }: AmountUnit): bigint {
  const match = DECIMAL_TEXT.exec(text.trim());
  const whole = match?.[1] ?? '';
  const fraction = withoutTrailingZeros(match?.[2] ?? '');
  if (!match || (whole === '' && (match[2] ?? '') === '')) {
    throw invalidParams([
      { name: param, message: `${param} is not a decimal amount`, value: text },
    ]);
  }
  if (fraction.length > decimals) {
    throw invalidParams([
      {
        name: param,
        message: `${param} has ${fraction.length} decimal places; ${symbol} has ${decimals}`,
        value: text,
      },
    ]);
  }
  const units = parseUnits(fraction ? `${whole || '0'}.${fraction}` : whole || '0', decimals);
  if (units === 0n) {
    throw invalidParams([{ name: param, message: `${param} is zero; enter a positive amount` }]);
  }
  if (units > maxUint256) {
    throw invalidParams([{ name: param, message: `${param} is too large`, value: text }]);
  }
  return units;
}

/** A loop, not `/0+$/`, which rescans the zeros from every position: quadratic on "000…01". */
function withoutTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits[end - 1] === '0') end -= 1;
  return digits.slice(0, end);
}

/** Base units back to decimal text, for messages and display. */
export function fromBaseUnits(units: bigint, decimals: number): string {
  return formatUnits(units, decimals);
}

/** Base units as a person reads them: whole tokens with thousands separators (`1,000.5`). */
export function formatAmount(units: bigint, decimals: number): string {
  const [whole, fraction] = fromBaseUnits(units, decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}
