import type { TypedActionParameter } from '@solana/actions-spec';
import type { ActionParameter } from '../contract/action.types';

/**
 * A declared parameter as the Actions spec (2.4) shows it: its form field, or why the spec has
 * none (the blink is then published `disabled`, with that reason as its `error`, never broken).
 */
export type BlinkField =
  { ok: true; parameter: TypedActionParameter | undefined } | { ok: false; problem: string };

/** Hex of any whole number of bytes, or of exactly `n` (bytesN). */
const bytesPattern = (type: string): string => {
  const width = type.slice('bytes'.length);
  return width === '' ? '^0x([0-9a-fA-F]{2})*$' : `^0x[0-9a-fA-F]{${Number(width) * 2}}$`;
};

/** The spec's min and max are numbers (text for dates); the kit's may be text beyond 2^53. */
const asNumber = (value: number | string | undefined): number | undefined => {
  const number = typeof value === 'string' ? Number(value) : value;
  return number !== undefined && Number.isSafeInteger(Math.trunc(number)) ? number : undefined;
};

const textual = (
  param: ActionParameter,
  type: 'text' | 'email' | 'url' | 'textarea',
  pattern = param.pattern,
  patternDescription?: string,
): TypedActionParameter => ({
  ...base(param, type),
  ...(pattern !== undefined && { pattern }),
  ...(patternDescription !== undefined && { patternDescription }),
});

function base<T extends TypedActionParameter['type']>(
  param: ActionParameter,
  type: T,
): { type: T; name: string; label: string; required?: boolean } {
  return {
    type,
    name: param.name,
    label: param.label,
    ...(param.required === true && { required: true }),
  };
}

/**
 * Maps one parameter. A `fixed` one is no field (the service always uses its value); files and
 * images cannot be sent in an Actions POST, whose `data` holds text only.
 */
export function blinkField(param: ActionParameter): BlinkField {
  if (param.fixed === true) return { ok: true, parameter: undefined };
  const { type } = param;
  switch (type) {
    case 'text':
    case 'string':
      return { ok: true, parameter: textual(param, 'text') };
    case 'textarea':
    case 'email':
    case 'url':
      return { ok: true, parameter: textual(param, type) };
    case 'address':
      return {
        ok: true,
        parameter: textual(param, 'text', '^0x[0-9a-fA-F]{40}$', 'A 0x address (40 hex digits)'),
      };
    case 'number': {
      const [min, max] = [asNumber(param.min), asNumber(param.max)];
      return {
        ok: true,
        parameter: {
          ...base(param, 'number'),
          ...(min !== undefined && { min }),
          ...(max !== undefined && { max }),
        },
      };
    }
    case 'datetime':
      return { ok: true, parameter: base(param, 'datetime-local') };
    case 'boolean':
    case 'bool':
      // One box: checked sends ["true"], which the kit reads as true.
      return {
        ok: true,
        parameter: { ...base(param, 'checkbox'), options: [{ label: param.label, value: 'true' }] },
      };
    case 'select':
    case 'radio':
      return {
        ok: true,
        parameter: {
          ...base(param, type),
          options: (param.options ?? []).map((option) => ({
            label: option.label,
            value: String(option.value),
            ...(param.value !== undefined &&
              String(param.value) === String(option.value) && { selected: true }),
          })),
        },
      };
    case 'file':
    case 'image':
      return { ok: false, problem: `${param.name} (${type}): an Actions POST carries text only` };
    default:
      if (type.startsWith('bytes')) {
        return { ok: true, parameter: textual(param, 'text', bytesPattern(type), 'Hex bytes') };
      }
      // uintN / intN: text, not `number`, so values beyond 2^53 stay exact.
      return {
        ok: true,
        parameter: textual(
          param,
          'text',
          type.startsWith('u') ? '^[0-9]+$' : '^-?[0-9]+$',
          'A whole number',
        ),
      };
  }
}

/** Every parameter's field, or the first reason the blink must be disabled. */
export function blinkParameters(
  params: readonly ActionParameter[],
): { parameters: TypedActionParameter[] } | { problem: string } {
  const parameters: TypedActionParameter[] = [];
  for (const param of params) {
    const field = blinkField(param);
    if (!field.ok) return { problem: field.problem };
    if (field.parameter) parameters.push(field.parameter);
  }
  return { parameters };
}
