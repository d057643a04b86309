import { platformParameterProblems, platformSaysGreater } from './platform-parameter';

type Param = Record<string, unknown>;
const p = (over: Param): Param => ({ name: 'p', label: 'P', type: 'string', ...over });
const options = (...values: unknown[]): Param[] =>
  values.map((value, i) => ({ label: `Option ${i}`, value }));

/** Each rule the platform's validator applies: a parameter breaking it, and the same one fixed. */
const RULES: [string, Param, string, Param][] = [
  [
    'big-integer bounds compared as text',
    p({ type: 'uint256', min: '9007199254740993', max: '10000000000000000000' }),
    'greater than max "10000000000000000000" as the platform compares them',
    p({ type: 'uint256', min: 5, max: '10000000000000000000' }),
  ],
  [
    'a datetime default as ISO text',
    p({ type: 'datetime', value: '2030-01-01T00:00:00Z' }),
    'datetime default that is not epoch milliseconds',
    p({ type: 'datetime', value: Date.UTC(2030, 0, 1) }),
  ],
  [
    'a boolean default as text',
    p({ type: 'boolean', value: 'true' }),
    'boolean default that is not true or false as JSON',
    p({ type: 'boolean', value: true }),
  ],
  [
    'a bool default as text',
    p({ type: 'bool', value: 'false' }),
    'boolean default',
    p({ type: 'bool', value: false }),
  ],
  [
    'a number default in exponent form (text)',
    p({ type: 'number', value: '1e3' }),
    'number default in exponent form',
    p({ type: 'number', value: 1000 }),
  ],
  [
    'a number default JavaScript writes in exponent form',
    p({ type: 'number', value: 1e21 }),
    'number default in exponent form',
    p({ type: 'number', value: 0.5 }),
  ],
  [
    'an e-mail default with a long top-level domain',
    p({ type: 'email', value: 'a@b.museum' }),
    "e-mail default the platform's pattern refuses",
    p({ type: 'email', value: 'a@b.org' }),
  ],
  [
    'a radio of one option',
    p({ type: 'radio', options: options('a') }),
    'radio with one option (the platform needs at least 2 options)',
    p({ type: 'radio', options: options('a', 'b') }),
  ],
  [
    'a select with a value twice (as text)',
    p({ type: 'select', options: options(true, 'true') }),
    'has the option value "true" twice (the platform needs unique option values)',
    p({ type: 'select', options: options(true, false) }),
  ],
  [
    'a radio with a value twice',
    p({ type: 'radio', options: options(1, 1) }),
    'has the option value "1" twice',
    p({ type: 'radio', options: options(1, 2) }),
  ],
  [
    'an option value that is an object',
    p({ type: 'select', options: options({ x: 1 }) }),
    'option 0 has a value that is not text, a number or a boolean',
    p({ type: 'select', options: options('x') }),
  ],
  [
    'an address default that is neither an address nor "sender"',
    p({ type: 'address', value: 'me' }),
    'not an address (nor "sender")',
    p({ type: 'address', value: 'sender' }),
  ],
];

describe('platformParameterProblems: the platform validator, rule by rule', () => {
  it.each(RULES)('refuses %s, naming the parameter and the rule', (_, broken, rule, fixed) => {
    const problems = platformParameterProblems(broken);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^parameter "p" /);
    expect(problems[0]).toContain(rule);
    expect(platformParameterProblems(fixed)).toEqual([]);
  });

  it('accepts boolean option values and the fields sensitive and queryParam', () => {
    const param = p({ type: 'radio', options: options(true, false), sensitive: true });
    expect(platformParameterProblems({ ...param, queryParam: false })).toEqual([]);
  });
});

describe('platformSaysGreater: JavaScript comparison as the validator runs it', () => {
  it.each<[string | number, string | number, boolean]>([
    ['9007199254740993', '10000000000000000000', true],
    ['2', '10', true],
    [2, '10', false],
    ['9007199254740993', 10, true],
    [1, 2, false],
  ])('%p > %p is %p', (min, max, greater) => {
    expect(platformSaysGreater(min, max)).toBe(greater);
  });
});
