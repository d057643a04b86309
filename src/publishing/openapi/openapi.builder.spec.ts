import { ActionParam } from '../../kit/action-param.decorator';
import { defineAction } from '../../kit/action.decorator';
import type { ActionDeclaration } from '../../contract/action.types';
import { defineMiniApp } from '../../kit/mini-app';
import type { JsonSchema } from './json-schema';
import { buildOpenApiDocument, type OpenApiInput } from './openapi.builder';

const MINI_APP = defineMiniApp({ id: 'spec', title: 'Spec', description: 'Builder spec' });
const USER = '0x52908400098527886E0F7030069857D2E4169EE7';

class TypedParams {
  @ActionParam({ type: 'int8', label: 'Small' })
  small?: bigint;

  @ActionParam({ type: 'uint256', label: 'Big', min: '1', required: true })
  big!: bigint;

  @ActionParam({ type: 'bytes4', label: 'Selector' })
  selector?: string;

  @ActionParam({ type: 'datetime', label: 'When', min: 0, max: '2030-01-01' })
  when?: Date;

  @ActionParam({
    type: 'select',
    label: 'Tier',
    options: [
      { label: 'One', value: 1 },
      { label: 'Half', value: 0.5 },
    ],
  })
  tier?: number;

  @ActionParam({ type: 'email', label: 'Mail', required: true, value: 'a@b.co' })
  mail!: string;

  @ActionParam({ type: 'address', label: 'Token', fixed: true, value: USER })
  token!: string;
}

class UploadParams {
  @ActionParam({ type: 'image', label: 'Pictures', multiple: true, accept: 'image/png' })
  pictures!: unknown;
}

const typed = defineAction({
  label: 'Typed',
  description: 'Every kind',
  docs: '## Answer\n\nEvery **kind** of value.\n',
  chains: { source: 43113 },
  path: '/api/a-b',
  miniApp: MINI_APP,
  params: TypedParams,
  requiresUser: true,
  samples: [{ params: { big: '123456789012345678901234567890' }, userAddress: USER, chainId: 1 }],
});
const upload = defineAction({
  label: 'Upload',
  chains: { source: 43113 },
  path: '/api/a_b',
  miniApp: MINI_APP,
  params: UploadParams,
  responseType: 'data',
  callsOutside: true,
});

const input = (extra: Partial<OpenApiInput> = {}): OpenApiInput => ({
  title: 'T',
  description: 'D',
  actions: [typed, upload] as ActionDeclaration[],
  miniApps: [MINI_APP],
  ...extra,
});

/** The parts of the document this spec reads. */
interface Operation {
  operationId: string;
  parameters: { name: string; required?: boolean; example?: unknown; schema: JsonSchema }[];
  requestBody: { content: Record<string, { examples?: unknown }> };
  responses: Record<string, unknown>;
  'x-action-samples': unknown;
}
interface Built {
  servers?: unknown;
  paths: Record<string, { post: Operation; get: Operation }>;
  components: { schemas: Record<string, JsonSchema> };
}
const build = (extra?: Partial<OpenApiInput>): Built =>
  buildOpenApiDocument(input(extra)) as unknown as Built;

describe('buildOpenApiDocument', () => {
  const document = build();
  const schemas = document.components.schemas;

  it('names each action apart, even when paths differ only by punctuation', () => {
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['api-a-b.params', 'api-a-b-2.params']),
    );
    expect(document.paths['/api/a-b'].post.operationId).not.toBe(
      document.paths['/api/a_b'].post.operationId,
    );
  });

  it('maps each parameter type to its JSON Schema with the declared bounds', () => {
    const props = schemas['api-a-b.params'].properties ?? {};
    expect(props.small).toMatchObject({ type: ['integer', 'string'], minimum: -128, maximum: 127 });
    expect(props.big).toMatchObject({ minimum: 1, 'x-maximum': String(2n ** 256n - 1n) });
    expect(props.big.maximum).toBeUndefined();
    expect(props.selector.pattern).toBe('^0x[0-9a-fA-F]{8}$');
    expect(props.when).toMatchObject({
      'x-minimum': '1970-01-01T00:00:00.000Z',
      'x-maximum': '2030-01-01T00:00:00.000Z',
    });
    expect(props.tier).toMatchObject({ type: 'number', enum: [1, 0.5] });
    expect(props.mail).toMatchObject({ type: 'string', format: 'email', default: 'a@b.co' });
    expect(props.token).toMatchObject({ const: USER, pattern: '^0x[0-9a-fA-F]{40}$' });
    // `mail` has a default, so only `big` must be sent.
    expect(schemas['api-a-b.params'].required).toEqual(['big']);
  });

  it("gives each action a page: the generated notes, then the declaration's docs", () => {
    const { description } = buildOpenApiDocument(input()).paths['/api/a-b'].post as unknown as {
      description: string;
    };
    expect(description).toBe(
      'Every kind. Runs in transaction mode on chain 43113. Needs the acting user’s address.' +
        '\n\n## Answer\n\nEvery **kind** of value.',
    );
    const plain = buildOpenApiDocument(input()).paths['/api/a_b'].post as unknown as {
      description: string;
    };
    expect(plain.description).toBe('Runs in data mode on chain 43113. Calls an external service.');
  });

  it('keeps samples verbatim and sends their user and chain as the body context', () => {
    const post = document.paths['/api/a-b'].post;
    expect(post['x-action-samples']).toEqual(typed.samples);
    expect(post.requestBody.content['application/json'].examples).toEqual({
      'sample-1': {
        value: {
          params: { big: '123456789012345678901234567890' },
          context: { userAddress: USER, sourceChain: 1 },
        },
      },
    });
    const header = post.parameters.find((p) => p.name === 'x-user-address');
    // Optional in the document (the body context carries the user), the sample's user its example.
    expect(header?.required).toBeUndefined();
    expect(header?.example).toBe(USER);
  });

  it('takes files as multipart/form-data, and lists outside failures for actions that call out', () => {
    const post = document.paths['/api/a_b'].post;
    expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data']);
    expect(schemas['api-a-b-2.params'].properties?.pictures).toMatchObject({
      type: 'array',
      items: { type: 'string', format: 'binary', contentMediaType: 'image/png' },
    });
    expect(Object.keys(post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '502', '503', '504']),
    );
    expect(Object.keys(document.paths['/api/a-b'].post.responses)).not.toContain('502');
    expect(post['x-action-samples']).toEqual([]);
  });

  it('names the public base URL as the server only when one is configured', () => {
    expect(document.servers).toBeUndefined();
    expect(build({ serverUrl: 'https://actions.example.com' }).servers).toEqual([
      { url: 'https://actions.example.com' },
    ]);
  });

  it('lists the mini-app ids as the values of /api/mini-apps/{id}', () => {
    const [id] = document.paths['/api/mini-apps/{id}'].get.parameters;
    expect(id.schema.enum).toEqual(['spec']);
  });
});
