import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { ActionDeclaration } from './action.types';
import { getDeclaredParams } from './action-param.decorator';
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
  const raw: Record<string, unknown> = {};
  for (const { name } of getDeclaredParams(paramsClass)) raw[name] = request.input(name);
  const instance = plainToInstance(paramsClass, raw, { excludeExtraneousValues: true });
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
  return instance;
}
