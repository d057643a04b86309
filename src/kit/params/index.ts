import { bytesKind, bytesSize } from './bytes.kind';
import { datetimeKind } from './datetime.kind';
import { integerKind, integerRange } from './integer.kind';
import type { ActionParameter } from '../../contract/action.types';
import type { ParamKind } from './param-kind';
import { addressKind, booleanKind, choiceKind, numberKind } from './scalar.kinds';
import { emailKind, textKind, urlKind } from './text.kinds';
import { uploadKind } from './upload.kind';

const NAMED: Record<string, ParamKind> = {
  text: textKind,
  string: textKind,
  textarea: textKind,
  email: emailKind,
  url: urlKind,
  number: numberKind,
  datetime: datetimeKind,
  address: addressKind,
  boolean: booleanKind,
  bool: booleanKind,
  select: choiceKind,
  radio: choiceKind,
  file: uploadKind,
  image: uploadKind,
};

/** The kind of a declared type, or undefined for a type the platform does not render. */
export function kindOf(type: string): ParamKind | undefined {
  if (Object.hasOwn(NAMED, type)) return NAMED[type];
  if (integerRange(type)) return integerKind;
  if (bytesSize(type) !== undefined) return bytesKind;
  return undefined;
}

/** A parameter as the platform's validator wants it published (its kind's `publish`, if any). */
export function publishedParam(param: ActionParameter): ActionParameter {
  return kindOf(param.type)?.publish?.(param) ?? param;
}

/** Why a declared type is not one of the platform's, naming the widths that exist. */
export function typeProblem(type: unknown): string | undefined {
  if (typeof type === 'string' && kindOf(type)) return undefined;
  const text = String(type);
  if (/^u?int\d+$/.test(text))
    return `has type "${text}": Solidity integers are uint8…uint256 and int8…int256, in steps of 8`;
  if (/^bytes\d+$/.test(text)) return `has type "${text}": fixed bytes are bytes1…bytes32`;
  return `has unknown type "${text}"`;
}

// Defined beside the uploads, which read it: params → uploads, never back.
export { isUploadType } from '../uploads/uploaded-file';

export { integerRange } from './integer.kind';
export { bytesSize } from './bytes.kind';
export type { ParamKind } from './param-kind';
