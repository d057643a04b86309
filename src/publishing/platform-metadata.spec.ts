import { assertPlatformMetadata, checkPlatformMetadata } from './platform-metadata';

type Doc = Record<string, unknown>;

const action = (over: Doc = {}): Doc => ({
  type: 'dynamic',
  label: 'Calculate',
  chains: { source: 43113 },
  path: '/api/calculator',
  params: [
    { name: 'a', label: 'A', type: 'number', min: 0, max: 10 },
    {
      name: 'op',
      label: 'Operation',
      type: 'select',
      options: [
        { label: 'Add', value: 'add' },
        { label: 'Subtract', value: 'subtract' },
      ],
    },
  ],
  ...over,
});

const valid = (over: Doc = {}): Doc => ({
  url: 'https://actions.example.com/api/mini-apps/tools',
  icon: 'https://actions.example.com/icons/tools.svg?v=0123456789ab',
  title: 'Everyday tools',
  description: 'Quick calculations',
  baseUrl: 'https://actions.example.com',
  actions: [action()],
  ...over,
});

const withParam = (param: unknown): Doc => valid({ actions: [action({ params: [param] })] });

describe('checkPlatformMetadata', () => {
  it('accepts a document the platform accepts', () => {
    expect(checkPlatformMetadata(valid())).toEqual([]);
    expect(checkPlatformMetadata(valid({ actions: [1, 2, 3, 4].map(() => action()) }))).toEqual([]);
    const absolute = action({ path: 'https://other.example.com/run' });
    expect(checkPlatformMetadata(valid({ baseUrl: undefined, actions: [absolute] }))).toEqual([]);
    expect(() => assertPlatformMetadata(valid())).not.toThrow();
  });

  it.each<[string, Doc, string]>([
    ['no url', { url: undefined }, 'url is missing or empty'],
    ['an empty url', { url: '' }, 'url is missing or empty'],
    ['a relative url', { url: '/api/mini-apps/tools' }, 'url is not an absolute URL'],
    ['an ftp url', { url: 'ftp://example.com/x' }, 'url must use http or https, not ftp:'],
    [
      'a url over 2000',
      { url: `https://a.example/${'x'.repeat(1990)}` },
      'url is longer than 2000',
    ],
    ['no icon', { icon: undefined }, 'icon is missing or empty'],
    ['a javascript icon', { icon: 'javascript:alert(1)' }, 'icon must use http or https'],
    ['an icon over 2000', { icon: `https://a.example/${'x'.repeat(1990)}` }, 'icon is longer'],
    ['no title', { title: undefined }, 'title is missing or empty'],
    ['a title over 1000', { title: 't'.repeat(1001) }, 'title is longer than 1000'],
    ['no description', { description: '' }, 'description is missing or empty'],
    ['a description over 2000', { description: 'd'.repeat(2001) }, 'description is longer'],
    [
      'a baseUrl that is no URL',
      { baseUrl: 'actions.example.com', actions: [action({ path: 'https://a.example/x' })] },
      'baseUrl is not an absolute URL',
    ],
    ['no actions', { actions: undefined }, 'actions is not an array'],
    ['an empty actions list', { actions: [] }, 'actions is empty'],
    ['five actions', { actions: [1, 2, 3, 4, 5].map(() => action()) }, 'holds 5 entries'],
    ['an action that is not an object', { actions: ['x'] }, 'actions[0] is not an object'],
    ['an unknown action type', { actions: [action({ type: 'magic' })] }, 'type "magic" is not'],
    ['another action type', { actions: [action({ type: 'http' })] }, 'is not checked here'],
    ['an action without label', { actions: [action({ label: '' })] }, 'actions[0].label'],
    ['a description that is no text', { actions: [action({ description: 1 })] }, 'not text'],
    ['an action without path', { actions: [action({ path: undefined })] }, 'path is missing'],
    ['a path not starting with "/"', { actions: [action({ path: 'api/x' })] }, 'start with "/"'],
    ['a path of another scheme', { actions: [action({ path: 'httpx:/x' })] }, 'not an http(s)'],
    ['a relative path without baseUrl', { baseUrl: undefined }, 'has no baseUrl'],
    ['no chains', { actions: [action({ chains: undefined })] }, 'chains is missing'],
    ['a chain name', { actions: [action({ chains: { source: 'fuji' } })] }, 'not a chain id'],
    [
      'a fractional destination',
      { actions: [action({ chains: { source: 1, destination: 1.5 } })] },
      'chains.destination is not a chain id',
    ],
    ['params that are no array', { actions: [action({ params: {} })] }, 'params is not an array'],
  ])('reports %s', (_, over, problem) => {
    const problems = checkPlatformMetadata(valid(over));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });

  it.each<[string, unknown, string]>([
    ['a parameter that is no object', 'a', 'is not an object'],
    ['a parameter without name', { label: 'A', type: 'string' }, 'has no name'],
    ['a parameter without label', { name: 'a', type: 'string' }, 'has no label'],
    ['a parameter without type', { name: 'a', label: 'A' }, 'has no type'],
    ['a select without options', { name: 's', label: 'S', type: 'select' }, 'without options'],
    [
      'an option without label',
      { name: 'r', label: 'R', type: 'select', options: [{ value: 1 }] },
      'option 0 has no label',
    ],
    [
      'an option without value',
      { name: 'r', label: 'R', type: 'select', options: [{ label: 'One' }] },
      'option 0 has no value',
    ],
    [
      'two options of one value',
      {
        name: 's',
        label: 'S',
        type: 'select',
        options: [
          { label: 'One', value: 1 },
          { label: 'Also one', value: '1' },
        ],
      },
      'has the option value "1" twice',
    ],
    ['min above max', { name: 'n', label: 'N', type: 'number', min: 5, max: 1 }, 'min 5 greater'],
    [
      'minLength above maxLength',
      { name: 't', label: 'T', type: 'string', minLength: 5, maxLength: 1 },
      'minLength 5 greater than maxLength 1',
    ],
    ['a broken pattern', { name: 't', label: 'T', type: 'string', pattern: '(' }, 'pattern'],
    ['a bad URL default', { name: 'u', label: 'U', type: 'url', value: 'nope' }, 'not a URL'],
    [
      'a bad address default',
      { name: 'a', label: 'A', type: 'address', value: '0x12' },
      'not an address',
    ],
  ])('reports %s', (_, param, problem) => {
    const problems = checkPlatformMetadata(withParam(param));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^actions\[0\]\.params\[0\]/);
    expect(problems[0]).toContain(problem);
  });

  it('accepts "sender" as an address default, as the platform does', () => {
    const param = { name: 'a', label: 'A', type: 'address', value: 'sender' };
    expect(checkPlatformMetadata(withParam(param))).toEqual([]);
  });

  it('refuses what is not a JSON object', () => {
    for (const document of [null, [], 'text', 3]) {
      expect(checkPlatformMetadata(document)).toEqual(['the document is not a JSON object']);
    }
  });

  it('reports every problem at once, and assertPlatformMetadata lists them', () => {
    const document = valid({ url: undefined, icon: undefined, actions: [action({ label: '' })] });
    expect(checkPlatformMetadata(document)).toEqual([
      'url is missing or empty',
      'icon is missing or empty',
      'actions[0].label is missing or empty',
    ]);
    expect(() => assertPlatformMetadata(document, 'GET /x')).toThrow(
      /^The platform would refuse GET \/x:\n {2}- url is missing or empty\n {2}- icon/,
    );
  });
});
