import { ValidateBy, type ValidationArguments } from '../../config/validator-subset';
import type { ActionParameter, ParamSpec } from '../../contract/action.types';

/**
 * What the kit knows of one parameter type: how text (a query string, a form field) becomes the
 * service's value, the class-validator rules that enforce the declaration with the contract's
 * messages, and the boot checks of the type's own fields.
 */
export interface ParamKind {
  /** Converts a present raw value; what cannot be converted is returned as is, for `rules` to refuse. */
  convert(spec: ParamSpec, value: unknown): unknown;
  rules(spec: ParamSpec): PropertyDecorator[];
  /** Problems of the declaration's fields, each starting after `parameter "<name>" `. */
  check(param: ActionParameter): string[];
  /**
   * The parameter as the platform's validator wants it published (a default or bound in the
   * form it accepts); absent: published as declared. See src/publishing/platform-parameter.ts.
   */
  publish?(param: ActionParameter): ActionParameter;
}

/** One named class-validator rule; `$property` in a message text becomes the parameter's name. */
export function rule(
  name: string,
  validate: (value: unknown) => boolean,
  message: string | ((args: ValidationArguments) => string),
): PropertyDecorator {
  return ValidateBy({ name, validator: { validate } }, { message });
}

export const isPositiveInteger = (value: unknown): boolean =>
  Number.isSafeInteger(value) && (value as number) > 0;

/** Problems of fields a type does not use, so a misplaced `accept` or `maxWidth` is not silently ignored. */
export function unusedFields(
  param: ActionParameter,
  fields: readonly (keyof ParamSpec)[],
): string[] {
  return fields
    .filter((field) => param[field] !== undefined)
    .map((field) => `has ${field}, which a ${param.type} does not use`);
}
