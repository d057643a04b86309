import { type ParamKind, rule } from './param-kind';
import { textCheck, textRules } from './text.kinds';

const BYTES_TYPE = /^bytes(\d{1,2})?$/;
const HEX = /^0x(?:[0-9a-f]{2})*$/;

/** The fixed size of a `bytesN` type (1 to 32), `null` for `bytes`, undefined for no such type. */
export function bytesSize(type: string): number | null | undefined {
  const match = BYTES_TYPE.exec(type);
  if (!match) return undefined;
  if (match[1] === undefined) return null;
  const size = Number(match[1]);
  return size >= 1 && size <= 32 && String(size) === match[1] ? size : undefined;
}

/** `bytes`, `bytes1`…`bytes32`: `0x` hex of whole bytes, handed over in lower case; text rules apply too. */
export const bytesKind: ParamKind = {
  convert(_spec, value) {
    const text = typeof value === 'string' ? value.trim() : undefined;
    return text?.startsWith('0x') ? `0x${text.slice(2).toLowerCase()}` : value;
  },
  rules(spec) {
    const size = bytesSize(spec.type);
    const hex = (v: unknown): v is string => typeof v === 'string' && HEX.test(v);
    if (size === null || size === undefined) {
      return [
        ...textRules(spec),
        rule('isHexBytes', hex, '$property must be 0x-prefixed hex of whole bytes'),
      ];
    }
    return [
      ...textRules(spec),
      rule(
        'isHexBytesN',
        (v) => hex(v) && v.length === 2 + 2 * size,
        `$property must be 0x-prefixed hex of exactly ${size} byte${size === 1 ? '' : 's'}`,
      ),
    ];
  },
  check: textCheck,
};
