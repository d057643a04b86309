import { MAX_DEPTH, MAX_NODES, parseJsonBody } from './json-body';

describe('parseJsonBody', () => {
  it('reads JSON and removes prototype-poisoning keys, escaped spellings included', () => {
    const value = parseJsonBody(
      '{"a":{"__proto__":{"x":1},"b":[{"\\u005f_proto__":2}]},"constructor":{"prototype":{}}}',
    ) as Record<string, unknown>;
    expect(value).toEqual({ a: { b: [{}] } });
    expect(Object.hasOwn(value.a as object, '__proto__')).toBe(false);
  });

  it('keeps a constructor key that is plain data', () => {
    expect(parseJsonBody('{"constructor":"Ada"}')).toEqual({ constructor: 'Ada' });
  });

  it('refuses text that is no JSON', () => {
    expect(() => parseJsonBody('caption=hi')).toThrow('Request body is not valid JSON');
  });

  it('refuses to scan a body too deep or too wide once it holds such a key', () => {
    const deep = `${'['.repeat(MAX_DEPTH + 2)}{"__proto__":1}${']'.repeat(MAX_DEPTH + 2)}`;
    expect(() => parseJsonBody(deep)).toThrow(/too deep or too large/);
    const wide = `{"__proto__":1,"l":[${Array(MAX_NODES + 1)
      .fill('[]')
      .join(',')}]}`;
    expect(() => parseJsonBody(wide)).toThrow(/too deep or too large/);
  });

  it('leaves a large body without such keys unscanned', () => {
    const wide = `[${Array(MAX_NODES * 2)
      .fill('[]')
      .join(',')}]`;
    expect(parseJsonBody(wide)).toHaveLength(MAX_NODES * 2);
  });
});
