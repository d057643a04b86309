import fc from 'fast-check';
import { getAddress } from 'viem';
import type { ActionParameter } from '../../src/contract/action.types';
import { bytesSize, integerRange } from '../../src/kit/params';
import { invalidUpload, validUpload } from './upload.arbitraries';

/** A value the declaration accepts, sometimes sent as the text a query string or form would carry. */
export function validValue(param: ActionParameter): fc.Arbitrary<unknown> {
  if (param.fixed) return asTextToo(fc.constant(param.value as string | number | boolean));
  const asText = (arb: fc.Arbitrary<string>): fc.Arbitrary<unknown> => withinLength(param, arb);
  switch (param.type) {
    case 'number':
      return asTextToo(validNumber(param));
    case 'boolean':
    case 'bool':
      return asTextToo(fc.boolean());
    case 'select':
    case 'radio':
      return asTextToo(fc.constantFrom(...(param.options ?? []).map((o) => o.value)));
    case 'address':
      return addressArb.chain((a) => fc.constantFrom(a, a.toLowerCase()));
    case 'email':
      return asText(emailArb);
    case 'url':
      return asText(urlArb);
    case 'datetime':
      return validDate(param);
    case 'file':
    case 'image':
      return validUpload(param);
    case 'text':
    case 'string':
    case 'textarea':
      return asText(
        param.pattern
          ? fc.stringMatching(new RegExp(param.pattern))
          : fc.string({ maxLength: 40, unit: 'grapheme' }),
      );
  }
  if (integerRange(param.type)) return validInteger(param);
  const size = bytesSize(param.type);
  if (size !== undefined) return asText(hexArb(size));
  throw new Error(`No generator for parameter type ${param.type}`);
}

const asTextToo = (arb: fc.Arbitrary<string | number | boolean>): fc.Arbitrary<unknown> =>
  fc.oneof(arb, arb.map(String));

/** Length as class-validator (validator.js `isLength`) counts it: surrogate pairs and variation selectors count once. */
const textLength = (s: string): number =>
  s.length -
  (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) ?? []).length -
  (s.match(/\uFE0F|\uFE0E/g) ?? []).length;

function withinLength(param: ActionParameter, arb: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return arb
    .filter((s) => s.trim() !== '')
    .filter(
      (s) =>
        textLength(s) >= (param.minLength ?? 0) && textLength(s) <= (param.maxLength ?? Infinity),
    );
}

function validNumber(param: ActionParameter): fc.Arbitrary<number> {
  const min = typeof param.min === 'number' ? param.min : -1e12;
  const max = typeof param.max === 'number' ? param.max : 1e12;
  const { step } = param;
  if (step) {
    const base = typeof param.min === 'number' ? param.min : 0;
    return fc
      .integer({ min: Math.ceil((min - base) / step), max: Math.floor((max - base) / step) })
      .map((k) => Number((base + k * step).toPrecision(12)));
  }
  return fc
    .oneof(
      fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(min, max),
    )
    .filter((n) => n >= min && n <= max && !Object.is(n, -0));
}

function integerBounds(param: ActionParameter): { min: bigint; max: bigint } {
  const range = integerRange(param.type)!;
  return {
    min: param.min === undefined ? range.min : BigInt(param.min),
    max: param.max === undefined ? range.max : BigInt(param.max),
  };
}

/** Whole numbers of the whole range, bounds included; as text, or as a JSON number when exact. */
function validInteger(param: ActionParameter): fc.Arbitrary<unknown> {
  const { min, max } = integerBounds(param);
  return fc
    .oneof(fc.bigInt({ min, max }), fc.constantFrom(min, max))
    .chain((n) =>
      n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
        ? fc.constantFrom<unknown>(n.toString(), Number(n), ` ${n} `)
        : fc.constant(n.toString()),
    );
}

function validDate(param: ActionParameter): fc.Arbitrary<unknown> {
  const min = param.min === undefined ? new Date('1900-01-01') : new Date(param.min);
  const max = param.max === undefined ? new Date('2200-01-01') : new Date(param.max);
  return fc
    .date({ min, max, noInvalidDate: true })
    .chain((date) =>
      fc.constantFrom<unknown>(date.toISOString(), date.getTime(), String(date.getTime())),
    );
}

const label = fc.stringMatching(/^[a-z0-9]{1,12}$/);
const emailArb = fc
  .tuple(label, label, fc.constantFrom('com', 'org', 'io', 'dev'))
  .map(([user, host, tld]) => `${user}@${host}.${tld}`);
const urlArb = fc
  .tuple(fc.constantFrom('http', 'https'), label, fc.constantFrom('', '/a', '/a/b?c=1', '#top'))
  .map(([scheme, host, rest]) => `${scheme}://${host}.example${rest}`);

/** `0x` hex of `size` bytes (any size up to 40 for `bytes`), in either case. */
function hexArb(size: number | null): fc.Arbitrary<string> {
  const length = size === null ? { maxLength: 40 } : { minLength: size, maxLength: size };
  return fc.uint8Array(length).chain((bytes) => {
    const hex = Buffer.from(bytes).toString('hex');
    return fc.constantFrom(`0x${hex}`, `0x${hex.toUpperCase()}`);
  });
}

const addressArb = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => getAddress(`0x${Buffer.from(bytes).toString('hex')}`));

/** Structures no scalar parameter accepts. */
const structures = fc.oneof(
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant({ constructor: { prototype: { polluted: true } } }),
);

/** A present value the declaration must refuse. */
export function invalidValue(param: ActionParameter): fc.Arbitrary<unknown> {
  if (param.fixed) {
    const fixed = String(param.value);
    return fc.oneof(
      structures,
      fc
        .string({ minLength: 1, maxLength: 8 })
        .filter((s) => s.trim() !== '' && s.trim() !== fixed && !/^[\s0]*$/.test(s)),
    );
  }
  switch (param.type) {
    case 'number': {
      const out: fc.Arbitrary<unknown>[] = [
        structures,
        fc.boolean(),
        fc.constantFrom('abc', '1e400', '-1e400', '0x10', '1,5', 'NaN', 'Infinity', '١٢'),
      ];
      if (typeof param.max === 'number')
        out.push(fc.double({ min: param.max + 1, max: param.max + 1e9, noNaN: true }));
      if (typeof param.min === 'number')
        out.push(fc.double({ min: param.min - 1e9, max: param.min - 1, noNaN: true }));
      return fc.oneof(...out);
    }
    case 'boolean':
    case 'bool':
      return fc.oneof(structures, fc.constantFrom('yes', 'no', '1', 'TRUE!', 2, -1));
    case 'select':
    case 'radio': {
      const allowed = new Set((param.options ?? []).map((o) => String(o.value)));
      return fc.oneof(
        structures,
        fc
          .string({ minLength: 1, maxLength: 12 })
          .filter((s) => s.trim() !== '' && !allowed.has(s.trim())),
      );
    }
    case 'address':
      return fc.oneof(
        structures,
        fc.constantFrom(
          '0x123',
          'not-an-address',
          `0x${'g'.repeat(40)}`,
          '0x52908400098527886e0F7030069857D2E4169EE7',
        ),
        fc.integer(),
      );
    case 'email':
      return fc.oneof(
        structures,
        fc.constantFrom('ada', 'ada@', '@example.com', 'a b@c.com', 'ada@example'),
      );
    case 'url':
      return fc.oneof(
        structures,
        fc.constantFrom(
          'example.com',
          'ftp://example.com',
          'javascript:alert(1)',
          'http://',
          'https://exa mple.com',
        ),
      );
    case 'datetime':
      return fc.oneof(
        structures,
        fc.boolean(),
        fc.constantFrom('2025-02-30', '2025-13-01', 'tomorrow', '2025-06-01T25:00Z', '1e3', 9e15),
        ...outOfRangeDates(param),
      );
    case 'file':
    case 'image':
      return fc.oneof(structures, invalidUpload(param));
    case 'text':
    case 'string':
    case 'textarea': {
      const out: fc.Arbitrary<unknown>[] = [structures];
      if (param.maxLength !== undefined)
        out.push(
          fc
            .string({ minLength: param.maxLength + 1, maxLength: param.maxLength + 20 })
            .filter((s) => s.trim() !== ''),
        );
      return fc.oneof(...out);
    }
  }
  if (integerRange(param.type)) return invalidInteger(param);
  const size = bytesSize(param.type);
  if (size !== undefined) {
    return fc.oneof(
      structures,
      fc.constantFrom('0x1', '0xzz', 'deadbeef', '0X00', '0x 00'),
      size === null ? fc.constant('0x123') : hexArb(size === 32 ? 31 : size + 1),
    );
  }
  throw new Error(`No generator for parameter type ${param.type}`);
}

function invalidInteger(param: ActionParameter): fc.Arbitrary<unknown> {
  const { min, max } = integerBounds(param);
  return fc.oneof(
    structures,
    fc.boolean(),
    fc.constantFrom('1.5', '1e3', '0x10', 'abc', '--1', 1.5, -0.5, `${'9'.repeat(100)}`),
    fc.bigInt({ min: max + 1n, max: max + 2n ** 64n }).map(String),
    fc.bigInt({ min: min - 2n ** 64n, max: min - 1n }).map(String),
  );
}

function outOfRangeDates(param: ActionParameter): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  if (param.min !== undefined) {
    const min = new Date(param.min).getTime();
    out.push(fc.integer({ min: 1, max: 1e9 }).map((ms) => new Date(min - ms).toISOString()));
  }
  if (param.max !== undefined) {
    const max = new Date(param.max).getTime();
    out.push(fc.integer({ min: 1, max: 1e9 }).map((ms) => max + ms));
  }
  return out;
}
