import type { ValidationArguments } from '../../config/validator-subset';
import type { ActionParameter, ParamSpec } from '../../contract/action.types';
import {
  acceptList,
  isSvg,
  isUploadedFile,
  isUploadedImage,
  matchesAccept,
} from '../uploads/file-sniffer';
import type { UploadedFile, UploadedImage } from '../uploads/uploaded-file';
import { isPositiveInteger, type ParamKind, rule, unusedFields } from './param-kind';
import { TEXT_FIELDS } from './scalar.kinds';

/** `image/png`, `image/*`, `application/vnd.ms-excel`…, or an extension such as `.pdf`. */
const ACCEPT_ENTRY =
  /^(?:[a-z0-9][\w!#$&^.+-]*\/(?:\*|[a-z0-9][\w!#$&^.+-]*)|\.[a-z0-9][\w.+-]*)$/i;
const ASPECT_RATIO = /^([1-9]\d{0,4}):([1-9]\d{0,4})$/;
/** Aspect ratios are met within 1 %, so 1366×768 passes for 16:9. */
const RATIO_TOLERANCE = 0.01;

export function parseAspectRatio(text: string | undefined): number | undefined {
  const match = text === undefined ? null : ASPECT_RATIO.exec(text);
  return match ? Number(match[1]) / Number(match[2]) : undefined;
}

/** The files of one value: the reader hands a list; one file when the parameter is not `multiple`. */
const filesOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
const every =
  <T>(is: (v: unknown) => v is T, test: (file: T) => boolean) =>
  (value: unknown): boolean =>
    filesOf(value).every((v) => is(v) && test(v));

function uploadRules(spec: ParamSpec): PropertyDecorator[] {
  const image = spec.type === 'image';
  const noun = image ? 'an image' : 'a file';
  const rules = [
    rule(
      'isUpload',
      (v) => filesOf(v).length > 0 && filesOf(v).every(isUploadedFile),
      `$property must be ${noun}`,
    ),
    rule(
      'isSingleUpload',
      (v) => spec.multiple === true || !Array.isArray(v),
      '$property takes one file',
    ),
    // An empty file has no type to name: said as such, and no other rule speaks of it.
    rule(
      'notEmpty',
      every(isUploadedFile, (file) => file.size > 0),
      '$property is an empty file',
    ),
  ];
  const accept = acceptList(spec.accept);
  if (accept.length > 0)
    rules.push(
      rule(
        'uploadType',
        every(isUploadedFile, (file) => file.size === 0 || matchesAccept(file, accept)),
        (args: ValidationArguments) =>
          `${args.property} must be of type ${accept.join(', ')} (got ${typesOf(args.value)})`,
      ),
    );
  if (spec.maxSize !== undefined) {
    const { maxSize } = spec;
    rules.push(
      rule(
        'uploadMaxSize',
        every(isUploadedFile, (file: UploadedFile) => file.size <= maxSize),
        `$property must be at most ${maxSize} bytes`,
      ),
    );
  }
  if (!image) return rules;
  rules.push(
    rule(
      'isImage',
      every(isUploadedFile, (file) => file.size === 0 || isUploadedImage(file)),
      '$property must be an image',
    ),
  );
  // With an accept, matchesAccept already refuses an SVG it does not name.
  if (accept.length === 0)
    rules.push(
      rule(
        'imageNotSvg',
        every(isUploadedFile, (file) => !isSvg(file)),
        '$property must be a raster image (SVG only where accept names image/svg+xml)',
      ),
    );
  const { maxWidth, maxHeight } = spec;
  if (maxWidth !== undefined)
    rules.push(
      rule(
        'imageMaxWidth',
        every(isUploadedImage, (file: UploadedImage) => file.width <= maxWidth),
        `$property must be at most ${maxWidth} pixels wide`,
      ),
    );
  if (maxHeight !== undefined)
    rules.push(
      rule(
        'imageMaxHeight',
        every(isUploadedImage, (file: UploadedImage) => file.height <= maxHeight),
        `$property must be at most ${maxHeight} pixels high`,
      ),
    );
  const ratio = parseAspectRatio(spec.aspectRatio);
  if (ratio !== undefined)
    rules.push(
      rule(
        'imageAspectRatio',
        every(
          isUploadedImage,
          (file: UploadedImage) =>
            Math.abs(file.width / file.height / ratio - 1) <= RATIO_TOLERANCE,
        ),
        `$property must have an aspect ratio of ${spec.aspectRatio}`,
      ),
    );
  return rules;
}

const typesOf = (value: unknown): string =>
  [
    ...new Set(
      filesOf(value)
        .filter(isUploadedFile)
        .map((file) => file.mimeType),
    ),
  ].join(', ');

function uploadCheck(param: ActionParameter): string[] {
  const image = param.type === 'image';
  const problems = unusedFields(param, [
    ...TEXT_FIELDS,
    'min',
    'max',
    'step',
    'options',
    ...(image ? [] : (['maxWidth', 'maxHeight', 'aspectRatio'] as const)),
  ]);
  if (param.value !== undefined || param.fixed)
    problems.push('is an upload, which cannot have a value or be fixed');
  for (const entry of acceptList(param.accept).filter((e) => !ACCEPT_ENTRY.test(e)))
    problems.push(`has an accept entry "${entry}" that is neither a MIME type nor an extension`);
  if (param.accept !== undefined && acceptList(param.accept).length === 0)
    problems.push('has an empty accept');
  for (const field of ['maxSize', 'maxWidth', 'maxHeight'] as const) {
    if (param[field] !== undefined && !isPositiveInteger(param[field]))
      problems.push(`has a ${field} that is not a positive whole number`);
  }
  if (param.multiple !== undefined && typeof param.multiple !== 'boolean')
    problems.push('has a multiple that is not true or false');
  if (param.aspectRatio !== undefined && parseAspectRatio(param.aspectRatio) === undefined)
    problems.push(`has an aspectRatio "${param.aspectRatio}" that is not "<width>:<height>"`);
  return problems;
}

/** `file` and `image`: uploads read from multipart bodies (see src/kit/uploads). */
export const uploadKind: ParamKind = {
  convert: (spec, value) =>
    Array.isArray(value) && value.every(isUploadedFile) && !spec.multiple && value.length === 1
      ? value[0]
      : value,
  rules: uploadRules,
  check: uploadCheck,
};
