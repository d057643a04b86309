import { validateSync } from 'class-validator';
import type { ActionDeclaration } from './action.types';
import { getDeclaredParams } from './action-param.decorator';
import { convertParam } from './param-conversion';
import { invalidParams } from './action.exception';
import type { ActionRequest } from './action-request';

/**
 * Converts and validates an action's parameters with the rules its params class declares.
 * Names come from the declaration, so keys the action did not declare never reach the instance.
 */
export function buildParams<P extends object>(
  declaration: ActionDeclaration<P>,
  request: ActionRequest,
): P {
  const paramsClass = declaration.params;
  if (!paramsClass) return {} as P;
  const instance = new paramsClass() as Record<string, unknown>;
  for (const param of getDeclaredParams(paramsClass)) {
    instance[param.name] = convertParam(param, request.input(param.name));
  }
  const errors = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    throw invalidParams(
      errors.map((error) => ({
        name: error.property,
        value: error.value as unknown,
        message: Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`,
      })),
    );
  }
  return instance as P;
}
