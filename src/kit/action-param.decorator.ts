import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsOptional } from '../config/validator-subset';
import type { ActionParameter, ParamSpec, ParamsClass } from '../contract/action.types';
import { kindOf } from './params';

export const ACTION_PARAMS_KEY = 'dynamic-action:params';

/**
 * The class-validator rules for one parameter, each carrying the contract's exact message. An
 * unknown type gets none: checkDeclaration stops the boot naming it.
 */
function validatorsFor(spec: ParamSpec): PropertyDecorator[] {
  const presence = spec.required ? IsDefined({ message: '$property is required' }) : IsOptional();
  return [presence, ...(kindOf(spec.type)?.rules(spec) ?? [])];
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
