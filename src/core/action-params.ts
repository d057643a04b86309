import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { ActionDeclaration } from './action.types';
import { getDeclaredParams } from './action-param.decorator';
import { invalidParams } from './action.exception';
import type { ActionRequest } from './action-request';

/**
 * Stands in for objects and arrays, which no parameter accepts: class-transformer would otherwise
 * walk into them (and trip over keys such as `constructor`); every validator refuses the marker.
 */
const STRUCTURED = Symbol('structured value');

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
  for (const { name } of getDeclaredParams(paramsClass)) {
    const value = request.input(name);
    raw[name] = typeof value === 'object' && value !== null ? STRUCTURED : value;
  }
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
