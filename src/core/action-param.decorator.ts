import { applyDecorators } from '@nestjs/common';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';
import { isAddress } from 'viem';
import type { ActionParameter, ParamSpec, ParamsClass } from './action.types';
import { compilePattern, patternProblem } from './text-pattern';

export const ACTION_PARAMS_KEY = 'dynamic-action:params';

function isMultipleOf(value: unknown, step: number, base: number): boolean {
  if (typeof value !== 'number') return true;
  const steps = (value - base) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

/** The class-validator rules for one parameter, each carrying the contract's exact message. */
function validatorsFor(spec: ParamSpec): PropertyDecorator[] {
  const rules: PropertyDecorator[] = [
    spec.required ? IsDefined({ message: '$property is required' }) : IsOptional(),
  ];
  switch (spec.type) {
    case 'number': {
      rules.push(IsNumber({}, { message: '$property must be a valid number' }));
      if (spec.min !== undefined)
        rules.push(Min(spec.min, { message: `$property must be at least ${spec.min}` }));
      if (spec.max !== undefined)
        rules.push(Max(spec.max, { message: `$property must be at most ${spec.max}` }));
      const { step } = spec;
      if (step !== undefined) {
        const base = spec.min ?? 0;
        rules.push(
          ValidateBy(
            {
              name: 'isMultipleOf',
              validator: { validate: (v: unknown) => isMultipleOf(v, step, base) },
            },
            { message: `$property must be a multiple of ${step}` },
          ),
        );
      }
      break;
    }
    case 'string':
      rules.push(IsString({ message: '$property must be text' }));
      if (spec.minLength !== undefined)
        rules.push(
          MinLength(spec.minLength, {
            message: `$property must be at least ${spec.minLength} characters`,
          }),
        );
      if (spec.maxLength !== undefined)
        rules.push(
          MaxLength(spec.maxLength, {
            message: `$property must be at most ${spec.maxLength} characters`,
          }),
        );
      // A pattern RE2 cannot compile is reported at boot by checkDeclaration, naming the action.
      if (spec.pattern !== undefined && patternProblem(spec.pattern) === undefined) {
        const matches = compilePattern(spec.pattern);
        rules.push(
          ValidateBy(
            {
              name: 'matchesPattern',
              validator: { validate: (v: unknown) => typeof v === 'string' && matches(v) },
            },
            { message: '$property has an invalid format' },
          ),
        );
      }
      break;
    case 'boolean':
      rules.push(IsBoolean({ message: '$property must be true or false' }));
      break;
    case 'select':
    case 'radio': {
      const values = (spec.options ?? []).map((option) => option.value);
      rules.push(IsIn(values, { message: `$property must be one of: ${values.join(', ')}` }));
      break;
    }
    case 'address':
      rules.push(
        ValidateBy(
          {
            name: 'isAddress',
            validator: { validate: (v: unknown) => typeof v === 'string' && isAddress(v) },
          },
          { message: '$property must be a valid address' },
        ),
      );
      break;
  }
  return rules;
}

/**
 * Declares one action parameter on a params class: records it for the published metadata and
 * conversion (see param-conversion.ts) and applies the class-validator rules that enforce it,
 * so the fact is written once.
 */
export function ActionParam(spec: ParamSpec): PropertyDecorator {
  const record: PropertyDecorator = (target, key) => {
    const name = String(key);
    const params =
      (Reflect.getOwnMetadata(ACTION_PARAMS_KEY, target.constructor) as
        ActionParameter[] | undefined) ?? [];
    Reflect.defineMetadata(ACTION_PARAMS_KEY, [...params, { name, ...spec }], target.constructor);
  };
  return applyDecorators(record, ...validatorsFor(spec));
}

const declared = new WeakMap<ParamsClass, ActionParameter[]>();

/** The parameters declared on a params class, in declaration order (read once per class). */
export function getDeclaredParams(params: ParamsClass | undefined): ActionParameter[] {
  if (!params) return [];
  let list = declared.get(params);
  if (!list) {
    list = (Reflect.getMetadata(ACTION_PARAMS_KEY, params) as ActionParameter[] | undefined) ?? [];
    declared.set(params, list);
  }
  return list;
}
