import type { ActionParameter } from '../../contract/action.types';
import { bytesSize, integerRange, isUploadType } from '../../kit/params';
import { toBigInt } from '../../kit/params/integer.kind';
import { toDate } from '../../kit/params/datetime.kind';
import type { JsonSchema } from './json-schema';

const ADDRESS = '^0x[0-9a-fA-F]{40}$';
const WHOLE_NUMBER_TEXT = '^[+-]?\\d+$';

/** A bound as a JSON number when it is exactly one; the description always states it exactly. */
function safeNumber(value: bigint): number | undefined {
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}

/** `uintN`/`intN`: a JSON number, or decimal text to be exact beyond 2^53. */
function integerSchema(param: ActionParameter): JsonSchema {
  const range = integerRange(param.type) ?? { min: 0n, max: 0n };
  const declared = (side: 'min' | 'max'): bigint | undefined => {
    const value = toBigInt(param[side]);
    return typeof value === 'bigint' ? value : undefined;
  };
  const min = declared('min') ?? range.min;
  const max = declared('max') ?? range.max;
  return {
    type: ['integer', 'string'],
    pattern: WHOLE_NUMBER_TEXT,
    minimum: safeNumber(min),
    maximum: safeNumber(max),
    'x-minimum': min.toString(),
    'x-maximum': max.toString(),
    description: `A whole number from ${min} to ${max} (${param.type}); send it as decimal text beyond 2^53.`,
  };
}

function numberSchema(param: ActionParameter): JsonSchema {
  const min = typeof param.min === 'number' ? param.min : undefined;
  const max = typeof param.max === 'number' ? param.max : undefined;
  const { step } = param;
  // JSON Schema counts multiples from 0; the kit counts them from `min`.
  const fromZero = step !== undefined && Number.isInteger((min ?? 0) / step);
  return {
    type: 'number',
    minimum: min,
    maximum: max,
    multipleOf: fromZero ? step : undefined,
    'x-step': step,
  };
}

function datetimeSchema(param: ActionParameter): JsonSchema {
  const bound = (side: 'min' | 'max'): string | undefined => {
    const date = toDate(param[side]);
    return date instanceof Date ? date.toISOString() : undefined;
  };
  const [min, max] = [bound('min'), bound('max')];
  const range = [min && `from ${min}`, max && `until ${max}`].filter(Boolean).join(' ');
  return {
    type: ['string', 'integer'],
    'x-minimum': min,
    'x-maximum': max,
    description: `ISO 8601 text (a time without an offset is UTC) or milliseconds since the epoch${range ? `, ${range}` : ''}.`,
  };
}

function textSchema(param: ActionParameter): JsonSchema {
  const schema: JsonSchema = {
    type: 'string',
    minLength: param.minLength,
    maxLength: param.maxLength,
    pattern: param.pattern,
  };
  if (param.type === 'email') schema.format = 'email';
  if (param.type === 'url') schema.format = 'uri';
  const size = bytesSize(param.type);
  if (size === undefined) return schema;
  const hex = size === null ? '^0x(?:[0-9a-fA-F]{2})*$' : `^0x[0-9a-fA-F]{${2 * size}}$`;
  // A declared pattern applies on top of the hex rule.
  return param.pattern === undefined
    ? { ...schema, pattern: hex }
    : { ...schema, allOf: [{ pattern: hex }] };
}

function uploadSchema(param: ActionParameter): JsonSchema {
  const file: JsonSchema = {
    type: 'string',
    format: 'binary',
    contentMediaType: param.accept,
    'x-max-size': param.maxSize,
  };
  return param.multiple ? { type: 'array', items: file } : file;
}

/** Option values keep their declared JSON type (`"add"`, `2`). */
function choiceSchema(param: ActionParameter): JsonSchema {
  const values = (param.options ?? []).map((option) => option.value);
  const types = new Set(
    values.map((value) =>
      typeof value === 'string' ? 'string' : Number.isInteger(value) ? 'integer' : 'number',
    ),
  );
  if (types.has('number')) types.delete('integer');
  return { type: types.size === 1 ? [...types][0] : [...types], enum: values };
}

function typeSchema(param: ActionParameter): JsonSchema {
  if (isUploadType(param.type)) return uploadSchema(param);
  if (integerRange(param.type)) return integerSchema(param);
  switch (param.type) {
    case 'number':
      return numberSchema(param);
    case 'datetime':
      return datetimeSchema(param);
    case 'boolean':
    case 'bool':
      return { type: 'boolean' };
    case 'address':
      return { type: 'string', pattern: ADDRESS };
    case 'select':
    case 'radio':
      return choiceSchema(param);
    default:
      return textSchema(param);
  }
}

/** Drops the fields left undefined, so the document holds only what a declaration says. */
function defined(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

/** The JSON Schema of one declared parameter: its type, bounds, options, default or fixed value. */
export function paramSchema(param: ActionParameter): JsonSchema {
  const schema = typeSchema(param);
  const notes = [param.description, schema.description].filter(Boolean).join(' ');
  return defined({
    ...schema,
    title: param.label,
    description: notes || undefined,
    default: param.value,
    const: param.fixed ? param.value : undefined,
    'x-param-type': param.type,
    'x-options': param.options?.length ? param.options : undefined,
  });
}

/** A parameter the request must carry: required, and no declared default to fall back on. */
export const mustBeSent = (param: ActionParameter): boolean =>
  param.required === true && param.value === undefined;

/** The `params` object of an action's request. */
export function paramsSchema(params: readonly ActionParameter[]): JsonSchema {
  const required = params.filter(mustBeSent).map((param) => param.name);
  return defined({
    type: 'object',
    properties: Object.fromEntries(params.map((param) => [param.name, paramSchema(param)])),
    required: required.length > 0 ? required : undefined,
    description: 'Keys that are not declared parameters are ignored.',
  });
}
