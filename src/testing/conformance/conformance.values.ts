import type { ActionParameter } from '../../contract/action.types';
import { bytesSize, integerRange, isUploadType } from '../../kit/params';
import type { SampleFile } from './conformance.request';

/** A 1×1 PNG: an image every `image` parameter accepts unless it refuses PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const acceptList = (param: ActionParameter): string[] =>
  (param.accept ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');

const accepts = (param: ActionParameter, type: string, extension: string): boolean => {
  const list = acceptList(param);
  return (
    list.length === 0 ||
    list.some((e) => e === type || e === `.${extension}` || e === `${type.split('/')[0]}/*`)
  );
};

/** A file the declaration accepts (PNG, or plain text where PNG is not accepted). */
export function validFile(param: ActionParameter): SampleFile {
  if (param.type === 'image' || accepts(param, 'image/png', 'png')) {
    return { bytes: PNG_1X1, filename: 'conformance.png', type: 'image/png' };
  }
  return { bytes: Buffer.from('conformance'), filename: 'conformance.txt', type: 'text/plain' };
}

/** The kit's files for the upload parameters of an action. */
export function validFiles(params: readonly ActionParameter[]): Record<string, SampleFile> {
  return Object.fromEntries(
    params.filter((p) => isUploadType(p.type)).map((p) => [p.name, validFile(p)]),
  );
}

/** A present value the declaration must refuse: a file, or a value sent as a parameter. */
export type BadValue = { file: SampleFile } | { value: unknown };

/** Not text, not a number: what no text-like parameter accepts. */
const STRUCTURE = { conformance: ['not', 'a', 'value'] };

function badText(param: ActionParameter): unknown {
  if (param.maxLength !== undefined) return 'x'.repeat(param.maxLength + 1);
  if (param.minLength !== undefined && param.minLength > 1) return 'x';
  if (param.pattern !== undefined) {
    const pattern = new RegExp(param.pattern);
    const unmatched = ['!#%', 'zz zz', '0', '-'].find((candidate) => !pattern.test(candidate));
    if (unmatched !== undefined) return unmatched;
  }
  return STRUCTURE;
}

function badNumber(param: ActionParameter): unknown {
  if (typeof param.max === 'number') return param.max + Math.max(1, param.step ?? 1);
  if (typeof param.min === 'number') return param.min - Math.max(1, param.step ?? 1);
  return 'not-a-number';
}

function badInteger(param: ActionParameter, range: { min: bigint; max: bigint }): unknown {
  const max = param.max === undefined ? range.max : BigInt(param.max);
  return (max + 1n).toString();
}

function badUpload(param: ActionParameter): BadValue {
  if (param.type === 'image') {
    return { file: { bytes: Buffer.from('not an image'), filename: 'bad.png', type: 'image/png' } };
  }
  if (acceptList(param).length > 0) {
    return {
      file: { bytes: Buffer.from('conformance'), filename: 'bad.conformance', type: 'x-bad/x-bad' },
    };
  }
  // Any file is accepted: text where a file is expected is the bad value.
  return { value: 'not-a-file' };
}

/**
 * A value the declaration refuses, derived from its type, bounds and options, so the same
 * request is sent on every run (a failure can be read and replayed).
 */
export function badValue(param: ActionParameter): BadValue {
  if (param.fixed) {
    const other = typeof param.value === 'number' ? param.value + 1 : `${String(param.value)}-x`;
    return { value: other };
  }
  switch (param.type) {
    case 'number':
      return { value: badNumber(param) };
    case 'boolean':
    case 'bool':
      return { value: 'maybe' };
    case 'select':
    case 'radio':
      return { value: 'conformance-not-an-option' };
    case 'address':
      return { value: '0x123' };
    case 'email':
      return { value: 'not-an-email' };
    case 'url':
      return { value: 'not a url' };
    case 'datetime':
      return { value: '2025-02-30' };
    case 'file':
    case 'image':
      return badUpload(param);
    case 'text':
    case 'string':
    case 'textarea':
      return { value: badText(param) };
  }
  const range = integerRange(param.type);
  if (range) return { value: badInteger(param, range) };
  if (bytesSize(param.type) !== undefined) return { value: '0xzz' };
  return { value: STRUCTURE };
}
