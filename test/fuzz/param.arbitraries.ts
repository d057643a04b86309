import fc from 'fast-check';
import { getAddress } from 'viem';
import type { ActionParameter } from '../../src/core';

/** A value the declaration accepts, sometimes sent as the text a query string or form would carry. */
export function validValue(param: ActionParameter): fc.Arbitrary<unknown> {
  const asTextToo = (arb: fc.Arbitrary<string | number | boolean>): fc.Arbitrary<unknown> =>
    fc.oneof(arb, arb.map(String));
  switch (param.type) {
    case 'number':
      return asTextToo(validNumber(param));
    case 'boolean':
      return asTextToo(fc.boolean());
    case 'select':
    case 'radio':
      return asTextToo(fc.constantFrom(...(param.options ?? []).map((o) => o.value)));
    case 'address':
      return addressArb.chain((a) => fc.constantFrom(a, a.toLowerCase()));
    case 'string':
      return (
        param.pattern
          ? fc.stringMatching(new RegExp(param.pattern))
          : fc.string({ maxLength: 40, unit: 'grapheme' })
      )
        .filter((s) => s.trim() !== '')
        .filter(
          (s) => s.length >= (param.minLength ?? 0) && s.length <= (param.maxLength ?? Infinity),
        );
  }
}

function validNumber(param: ActionParameter): fc.Arbitrary<number> {
  const min = param.min ?? -1e12;
  const max = param.max ?? 1e12;
  if (param.step) {
    const base = param.min ?? 0;
    const steps = Math.floor((max - base) / param.step);
    return fc
      .integer({ min: Math.ceil((min - base) / param.step), max: steps })
      .map((k) => Number((base + k * param.step!).toPrecision(12)));
  }
  return fc
    .oneof(
      fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(min, max),
    )
    .filter((n) => n >= min && n <= max && !Object.is(n, -0));
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
  switch (param.type) {
    case 'number': {
      const out: fc.Arbitrary<unknown>[] = [
        structures,
        fc.boolean(),
        fc.constantFrom('abc', '1e400', '-1e400', '0x10', '1,5', 'NaN', 'Infinity', '١٢'),
      ];
      if (param.max !== undefined)
        out.push(fc.double({ min: param.max + 1, max: param.max + 1e9, noNaN: true }));
      if (param.min !== undefined)
        out.push(fc.double({ min: param.min - 1e9, max: param.min - 1, noNaN: true }));
      return fc.oneof(...out);
    }
    case 'boolean':
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
    case 'string': {
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
}
