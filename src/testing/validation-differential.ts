import { inspect, isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { getMetadataStorage, validateSync } from 'class-validator';
import type { ActionParameter, ParamsClass } from '../contract/action.types';
import { getDeclaredParams } from '../kit/action-param.decorator';
import { convertParam } from '../kit/param-conversion';
import { type ParamFailure, validateParams } from '../kit/params/compiled-validation';

/**
 * The differential check of the compiled validation (src/kit/params/compiled-validation.ts):
 * random values on a params class's properties, validated by the compiled plan and by
 * class-validator's validateSync with buildParams' options; both must fail the same properties,
 * in the same order, with the same constraint key, message and value.
 */

/** Text that class-validator's message building treats specially when it is the `$value`. */
const TRICKY_TEXT = [
  '',
  ' ',
  '\t\n',
  '$value',
  '$&',
  "$'",
  '$`',
  '$1',
  '$property',
  '$constraint1',
];
/** Text some kinds accept (e-mail, URL, address, bytes), which random text almost never is. */
const WELL_FORMED = [
  ...['a@b.co', ' a@b.co ', 'https://example.com/a?b=1', 'http://localhost:3000', 'ftp://x.io'],
  ...[1, 20, 32].map((size) => `0x${'ab'.repeat(size)}`),
  ...['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '2024-02-29T12:00:00Z', '1700000000000'],
];
const NUMBERS = [NaN, Infinity, -Infinity, -0, 0, 1e308, -1e308, 5e-324, 2 ** 53 + 2, 0.1 + 0.2];

/** Any value a request, a conversion or a team's class may leave on a property. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, true, false, ...NUMBERS, ...TRICKY_TEXT),
  fc.double(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.bigInt(),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom('0', '1', '9', 'a', 'f', 'x', '.', '-', ' ', 'e') }),
  fc.double().map(String),
  fc.bigInt().map(String),
  fc.date({ noInvalidDate: false }),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

/** Values worth trying for one declared parameter: its default, options, bounds and their edges. */
function near(param: ActionParameter): unknown[] {
  const values: unknown[] = [param.value, ...(param.options ?? []).map((option) => option.value)];
  for (const bound of [param.min, param.max, param.minLength, param.maxLength]) {
    if (typeof bound === 'number') values.push(bound, bound - 1, bound + 1);
    if (typeof bound === 'string') values.push(bound, `${bound}0`);
  }
  for (const length of [param.minLength, param.maxLength])
    if (length !== undefined && length >= 0 && length < 1000)
      values.push('x'.repeat(length), 'é'.repeat(length + 1));
  return values.filter((value) => value !== undefined);
}

/** A declared parameter's inputs: raw values, and what the kind's conversion makes of them. */
function inputFor(param: ActionParameter | undefined): fc.Arbitrary<unknown> {
  if (!param) return anyValue;
  const raw = fc.oneof(anyValue, fc.constantFrom(...near(param), ...WELL_FORMED));
  return fc.oneof(
    raw,
    raw.map((value) => convertParam(param, value)),
  );
}

/** Every property class-validator has a rule for, and every declared parameter. */
function propertiesOf(paramsClass: ParamsClass): string[] {
  const storage = getMetadataStorage();
  const rules = storage.getTargetValidationMetadatas(paramsClass, '', false, false, undefined);
  const names = new Set(rules.map((rule) => rule.propertyName));
  for (const param of getDeclaredParams(paramsClass)) names.add(param.name);
  return [...names];
}

/** Random instances of a params class: each property one input (undefined among them). */
export function instancesOf(paramsClass: ParamsClass): fc.Arbitrary<object> {
  const declared = new Map(getDeclaredParams(paramsClass).map((param) => [param.name, param]));
  const shape = Object.fromEntries(
    propertiesOf(paramsClass).map((name) => [name, inputFor(declared.get(name))]),
  );
  return fc
    .record(shape, { requiredKeys: [] })
    .map((values) => Object.assign(new paramsClass(), values));
}

const comparable = (failures: readonly ParamFailure[]): ParamFailure[] =>
  failures.map(({ property, value, constraints }) => ({ property, value, constraints }));

/** What each side reports for one instance, in the fields buildParams reads. */
export function bothVerdicts(instance: object): {
  compiled: ParamFailure[];
  classValidator: ParamFailure[];
} {
  const compiled = comparable(validateParams(instance));
  const options = { stopAtFirstError: true, forbidUnknownValues: false };
  return { compiled, classValidator: comparable(validateSync(instance, options)) };
}

/**
 * How the two verdicts on one instance differ, or undefined when they do not (Object.is on every
 * value: NaN equals NaN, -0 differs from 0). Cheap, so a property can shrink a failure quickly.
 */
export function verdictDifference(instance: object): string | undefined {
  const { compiled, classValidator } = bothVerdicts(instance);
  if (isDeepStrictEqual(compiled, classValidator)) return undefined;
  return `compiled ${inspect(compiled)}\nclass-validator ${inspect(classValidator)}`;
}
