import fc from 'fast-check';
import {
  Allow,
  Contains,
  Equals,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Min,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import type { ParamSpec, ParamsClass } from '../../contract/action.types';
import {
  bothVerdicts,
  instancesOf,
  verdictDifference,
} from '../../testing/validation-differential';
import { ActionParam } from '../action-param.decorator';
import { isCompiled, validateParams } from './compiled-validation';

const TYPES = [
  ...['text', 'string', 'textarea', 'email', 'url', 'number', 'datetime', 'address'],
  ...['boolean', 'bool', 'select', 'radio', 'bytes', 'bytes1', 'bytes32', 'file', 'image'],
  ...['uint8', 'uint64', 'uint256', 'int16', 'int256'],
] as const;

const bound = fc.oneof(
  fc.integer({ min: -300, max: 300 }),
  fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
  fc.constantFrom(
    '2020-01-01T00:00:00Z',
    '1000',
    '-5',
    '0',
    '340282366920938463463374607431768211455',
  ),
);

/** A random declaration of one parameter, its fields drawn whatever its type uses. */
const specs: fc.Arbitrary<ParamSpec> = fc.record(
  {
    type: fc.constantFrom(...TYPES),
    label: fc.constant('Field'),
    required: fc.boolean(),
    min: bound,
    max: bound,
    step: fc.constantFrom(0.5, 1, 3, 0.01),
    minLength: fc.nat(5),
    maxLength: fc.nat(20),
    pattern: fc.constantFrom('^[a-z]+$', '^\\d{3}$', '.*', '^(a|b)$'),
    options: fc.array(
      fc.record({
        label: fc.constant('Option'),
        value: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean()),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  },
  { requiredKeys: ['type', 'label', 'required'] },
);

/** A value as text, even an object without a prototype (String() throws on those). */
const shown = (value: unknown): string => {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
};

@ValidatorConstraint({ name: 'isOk' })
class IsOk implements ValidatorConstraintInterface {
  validate = (value: unknown): boolean => value === 'ok';
  defaultMessage = (args: ValidationArguments): string =>
    `${args.property} of ${args.targetName} was ${shown(args.value)}, not $constraint1`;
}

@ValidatorConstraint({ name: 'isOkLater', async: true })
class IsOkLater implements ValidatorConstraintInterface {
  validate = (value: unknown): Promise<boolean> => Promise.resolve(value === 'ok');
}

/** Decorators a team may add by hand beside @ActionParam, with default and own messages. */
const HAND_WRITTEN: PropertyDecorator[] = [
  IsInt({ message: '$property=$value ($constraint1) on $target' }),
  Matches(/^a/, { message: '$property: $value does not match $constraint1' }),
  Contains('$&'),
  Contains(' x '),
  IsIn([1, 'a', true]),
  Length(2, 5),
  ValidateIf((object: { p0?: unknown }) => object.p0 !== undefined),
  IsOptional(),
  IsNotEmpty({ message: (args) => `${args.property}/${args.targetName}: ${String(args.value)}` }),
  Allow(),
  IsPositive({ always: true }),
  Min(3, { groups: ['admin'] }),
  Validate(IsOk, ['x']),
  Validate(IsOkLater),
  IsDefined(),
  Equals('$value'),
  IsString({ message: '' }),
];

/** A params class built the way a team writes one: @ActionParam properties, then extra rules. */
function declare(params: ParamSpec[], extras: [number, 'p0' | 'extra'][]): ParamsClass {
  class Generated {}
  params.forEach((spec, index) => ActionParam(spec)(Generated.prototype, `p${index}`));
  for (const [which, property] of extras) HAND_WRITTEN[which](Generated.prototype, property);
  return Generated;
}

describe('compiled validation', () => {
  it('words, accepts and refuses like validateSync for random declarations of every kind', () => {
    const extras = fc.array(
      fc.tuple(fc.nat(HAND_WRITTEN.length - 1), fc.constantFrom('p0' as const, 'extra' as const)),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(
        fc.array(specs, { minLength: 1, maxLength: 3 }),
        extras,
        fc.gen(),
        (params, added, draw) => {
          const paramsClass = declare(params, added);
          expect(isCompiled(paramsClass)).toBe(true);
          for (let round = 0; round < 12; round++) {
            const difference = verdictDifference(draw(() => instancesOf(paramsClass)));
            if (difference) throw new Error(difference);
          }
        },
      ),
      // Every shrinking step declares a class anew, and class-validator's lookups grow with them:
      // the first counterexample is reported as found, with both verdicts in its message.
      { numRuns: 400, endOnFailure: true },
    );
  });

  it('refuses with the contract messages the kinds declare', () => {
    const paramsClass = declare(
      [
        { type: 'number', label: 'A', required: true, min: 1 },
        { type: 'text', label: 'B', maxLength: 2 },
      ],
      [],
    );
    const instance = Object.assign(new paramsClass(), { p0: 0, p1: 'abc' });
    expect(validateParams(instance)).toEqual([
      { property: 'p0', value: 0, constraints: { min: 'p0 must be at least 1' } },
      {
        property: 'p1',
        value: 'abc',
        constraints: { maxLength: 'p1 must be at most 2 characters' },
      },
    ]);
  });

  it('leaves what it does not reproduce to validateSync, with the same verdicts', () => {
    class Nested {
      @IsString() name!: string;
    }
    class WithNested {
      @ValidateNested() child!: Nested;
    }
    class WithEach {
      @IsString({ each: true }) names!: unknown;
    }
    class WithContext {
      @IsString({ context: { code: 7 } }) name!: unknown;
    }
    const inputs = [
      undefined,
      'a',
      ['a', 1],
      { name: 1 },
      Object.assign(new Nested(), { name: 2 }),
    ];
    for (const paramsClass of [WithNested, WithEach, WithContext]) {
      expect(isCompiled(paramsClass)).toBe(false);
      for (const value of inputs) {
        const instance = Object.assign(new paramsClass(), {
          child: value,
          names: value,
          name: value,
        });
        const { compiled, classValidator } = bothVerdicts(instance);
        expect(compiled).toStrictEqual(classValidator);
      }
    }
    // Not vacuous: the fallback really reports what validateSync reports.
    expect(bothVerdicts(Object.assign(new WithEach(), { names: [1] })).compiled).toHaveLength(1);
  });

  it('follows a rule added to a class after its first validation', () => {
    class Later {
      @IsString({ message: 'text' }) name!: unknown;
    }
    const instance = Object.assign(new Later(), { name: 'abcdef' });
    expect(validateParams(instance)).toEqual([]);
    Length(1, 3, { message: 'short' })(Later.prototype, 'name');
    expect(validateParams(instance)).toEqual([
      { property: 'name', value: 'abcdef', constraints: { isLength: 'short' } },
    ]);
  });
});
