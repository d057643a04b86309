import fc from 'fast-check';
import type { ActionParameter } from '../../src/contract/action.types';
import { parseAspectRatio } from '../../src/kit/params/upload.kind';
import { pdf, png } from '../../src/testing/sample-files';

export interface SampleFile {
  bytes: Buffer;
  filename: string;
  type: string;
}

/** The files of an upload parameter, sent as multipart parts. */
export class Upload {
  constructor(readonly files: readonly SampleFile[]) {}
}

const accepts = (param: ActionParameter, type: string, extension: string): boolean => {
  const list = (param.accept ?? '').split(',').map((entry) => entry.trim().toLowerCase());
  return (
    list[0] === '' ||
    list.some((e) => e === type || e === `.${extension}` || e === `${type.split('/')[0]}/*`)
  );
};

/** Dimensions within the declared limits (kept small, so each run stays fast). */
function dimensions(param: ActionParameter): fc.Arbitrary<[number, number]> {
  const maxWidth = Math.min(param.maxWidth ?? 32, 32);
  const maxHeight = Math.min(param.maxHeight ?? 32, 32);
  const [a, b] = (param.aspectRatio ?? '').split(':').map(Number);
  if (parseAspectRatio(param.aspectRatio) !== undefined) {
    const most = Math.max(1, Math.min(Math.floor(maxWidth / a), Math.floor(maxHeight / b)));
    return fc.integer({ min: 1, max: most }).map((k): [number, number] => [a * k, b * k]);
  }
  return fc.tuple(fc.integer({ min: 1, max: maxWidth }), fc.integer({ min: 1, max: maxHeight }));
}

function validFile(param: ActionParameter): fc.Arbitrary<SampleFile> {
  const image = dimensions(param).chain(([width, height]) =>
    fc
      .nat(255)
      .map((seed) => ({ bytes: png(width, height, seed), filename: 'p.png', type: 'image/png' })),
  );
  if (param.type === 'image' || accepts(param, 'image/png', 'png')) return image;
  if (accepts(param, 'application/pdf', 'pdf'))
    return fc.constant({ bytes: pdf(), filename: 'd.pdf', type: 'application/pdf' });
  return fc
    .string({ minLength: 1, maxLength: 200 })
    .map((text) => ({ bytes: Buffer.from(text), filename: 't.txt', type: 'text/plain' }));
}

/** Files the declaration accepts: one, or one to three for a `multiple` parameter. */
export function validUpload(param: ActionParameter): fc.Arbitrary<Upload> {
  return fc
    .array(validFile(param), { minLength: 1, maxLength: param.multiple ? 3 : 1 })
    .map((files) => new Upload(files));
}

/** Files the declaration refuses with a 400 naming it (size limits are 413s, tested apart). */
export function invalidUpload(param: ActionParameter): fc.Arbitrary<unknown> {
  const samples = [
    {
      bytes: Buffer.from('not a picture'),
      filename: 'p.png',
      type: 'image/png',
      real: ['text/plain', 'txt'],
    },
    { bytes: png(2, 2), filename: 'p.txt', type: 'text/plain', real: ['image/png', 'png'] },
    { bytes: pdf(), filename: 'p.png', type: 'image/png', real: ['application/pdf', 'pdf'] },
  ];
  // A type the declaration refuses: any non-image for an image, else one outside `accept`.
  const refused = samples.find(
    ({ real: [type, extension] }) =>
      (param.type === 'image' && !type.startsWith('image/')) ||
      (param.accept !== undefined && !accepts(param, type, extension)),
  );
  const out: fc.Arbitrary<unknown>[] = [fc.constantFrom('x', 'a file name')];
  if (refused) out.push(fc.constant(new Upload([refused])));
  if (!param.multiple) out.push(validFile(param).map((file) => new Upload([file, file])));
  if (param.maxWidth !== undefined)
    out.push(
      fc.constant(
        new Upload([{ bytes: png(param.maxWidth + 1, 1), filename: 'w.png', type: 'image/png' }]),
      ),
    );
  return fc.oneof(...out);
}
