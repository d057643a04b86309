import { LOG_TEXT_MAX, logStack, logText } from './log-text';

describe('logText', () => {
  it('leaves ordinary text as it is', () => {
    expect(logText('Paris, Île-de-France 75001 — ok')).toBe('Paris, Île-de-France 75001 — ok');
  });

  it.each([
    ['a newline', 'x\nFAKE LOG LINE', 'x\\nFAKE LOG LINE'],
    ['a carriage return', 'x\rFAKE', 'x\\rFAKE'],
    ['a terminal escape', '\u001b[2Jcleared', '\\u001b[2Jcleared'],
    ['a NUL', 'a\u0000b', 'a\\u0000b'],
    ['a C1 next-line', 'a\u0085b', 'a\\u0085b'],
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb'],
    ['a backslash (so escapes cannot be faked)', 'a\\nb', 'a\\\\nb'],
    ['a quote', 'say "hi"', 'say \\"hi\\"'],
  ])('escapes %s', (_, input, expected) => {
    expect(logText(input)).toBe(expected);
  });

  it('never returns a character below U+0020', () => {
    let all = '';
    for (let code = 0; code < 0x20; code++) all += String.fromCharCode(code);
    const codes = [...logText(all)].map((char) => char.charCodeAt(0));
    expect(codes.filter((code) => code < 0x20)).toEqual([]);
  });

  it('caps long text and says how much was left out', () => {
    const text = logText('u'.repeat(10_000));
    expect(text).toBe(`${'u'.repeat(LOG_TEXT_MAX)}…(+${10_000 - LOG_TEXT_MAX} chars)`);
    expect(logText('abcdef', 3)).toBe('abc…(+3 chars)');
    expect(logText('abc', 3)).toBe('abc');
  });

  it('writes values that are not text as text', () => {
    expect(logText(42)).toBe('42');
    expect(logText(undefined)).toBe('undefined');
    expect(logText(new Error('bad\nthing'))).toBe('Error: bad\\nthing');
  });
});

describe('logStack', () => {
  it('escapes the message a stack starts with and keeps its frames', () => {
    const error = new Error('bad city x\nFAKE LOG LINE');
    const stack = logStack(error) as string;
    expect(stack.startsWith('Error: bad city x\\nFAKE LOG LINE\n    at ')).toBe(true);
    expect(stack.split('\n').filter((line) => !/^\s+at /.test(line))).toHaveLength(1);
    expect(stack).toContain('log-text.spec.ts');
  });

  it('has nothing to say about values that are not errors', () => {
    expect(logStack('text')).toBeUndefined();
    expect(logStack(undefined)).toBeUndefined();
  });
});
