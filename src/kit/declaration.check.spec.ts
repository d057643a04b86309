import 'reflect-metadata';
import { ACTION_PARAMS_KEY, ActionParam } from './action-param.decorator';
import type { ActionDeclaration, ActionParameter, ParamsClass } from '../contract/action.types';
import { assertValidDeclarations, checkDeclaration } from './declaration.check';

/** A params class carrying exactly these parameters, bypassing the decorator's own rules. */
function paramsOf(...params: Partial<ActionParameter>[]): ParamsClass {
  class Params {}
  Reflect.defineMetadata(ACTION_PARAMS_KEY, params, Params);
  return Params;
}

const MINI_APP = { id: 'calc', title: 'Calc', description: 'Calculations' };

const valid = (over: Partial<ActionDeclaration> = {}): ActionDeclaration => ({
  label: 'Calc',
  chains: { source: 43113 },
  path: '/api/calc',
  responseType: 'data',
  miniApp: MINI_APP,
  ...over,
});

class GoodParams {
  @ActionParam({ type: 'string', label: 'Name', required: true, minLength: 1, pattern: '^a' })
  name!: string;

  @ActionParam({ type: 'number', label: 'N', min: 1, max: 10, step: 1, value: 5 })
  n?: number;

  @ActionParam({ type: 'select', label: 'Op', options: [{ label: 'Add', value: 'add' }] })
  op?: string;

  @ActionParam({ type: 'radio', label: 'Tier', options: [{ label: 'One', value: 1 }], value: 1 })
  tier?: number;

  @ActionParam({ type: 'boolean', label: 'Flag', value: false })
  flag?: boolean;

  @ActionParam({ type: 'address', label: 'To' })
  to?: string;
}

describe('checkDeclaration', () => {
  it('finds nothing wrong with a well-formed declaration of every parameter type', () => {
    expect(checkDeclaration(valid({ params: GoodParams }))).toEqual([]);
    expect(checkDeclaration(valid({ chains: { source: 1, destination: 2 } }))).toEqual([]);
    expect(checkDeclaration(valid({ responseType: undefined }))).toEqual([]);
  });

  it.each<[string, Partial<ActionDeclaration>, string]>([
    ['an empty label', { label: '' }, 'missing label'],
    ['a blank label', { label: '   ' }, 'missing label'],
    ['an empty path', { path: '' }, 'missing path'],
    ['a relative path', { path: 'api/calc' }, 'path "api/calc" does not start with "/"'],
    [
      'a fractional source chain',
      { chains: { source: 1.5 } },
      'chains.source must be a positive integer chain id',
    ],
    [
      'a zero source chain',
      { chains: { source: 0 } },
      'chains.source must be a positive integer chain id',
    ],
    [
      'a fractional destination chain',
      { chains: { source: 1, destination: 2.5 } },
      'chains.destination must be a positive integer chain id',
    ],
    [
      'an unknown responseType',
      { responseType: 'transaction' as 'data' },
      'responseType "transaction" is not "data"',
    ],
    [
      'a dataSchema on a transaction action',
      { responseType: undefined, dataSchema: { type: 'object' } },
      'has a dataSchema, which only a data action (responseType: "data") answers',
    ],
  ])('reports %s', (_, over, problem) => {
    expect(checkDeclaration(valid(over))).toEqual([problem]);
  });

  it.each([
    ['/api/metadata'],
    ['/api/mini-apps'],
    ['/api/mini-apps/tools'],
    ['/icons/tools.svg'],
    ['/health'],
    ['/health/ready'],
    ['/api/openapi.json'],
    ['/debug'],
    ['/debug/decode'],
    ['/docs'],
  ])('reports the path %s, which the service answers itself', (path) => {
    expect(checkDeclaration(valid({ path }))).toEqual([
      `path "${path}" is one the service answers itself`,
    ]);
  });

  it('accepts paths that only begin like a reserved one', () => {
    for (const path of ['/api/metadata-2', '/api/mini-apps-list', '/iconsets', '/healthy']) {
      expect(checkDeclaration(valid({ path }))).toEqual([]);
    }
  });

  it('reports missing chains', () => {
    const declaration = { ...valid(), chains: undefined } as unknown as ActionDeclaration;
    expect(checkDeclaration(declaration)).toEqual([
      'chains.source must be a positive integer chain id',
    ]);
  });

  it.each<[string, Partial<ActionParameter>, string]>([
    ['an unknown type', { type: 'date' as 'string' }, 'has unknown type "date"'],
    ['no label', { label: '' }, 'has no label'],
    ['a zero step', { type: 'number', step: 0 }, 'has a step that is not positive'],
    ['a negative step', { type: 'number', step: -1 }, 'has a step that is not positive'],
    [
      'an invalid pattern',
      { pattern: '(' },
      'has an invalid pattern (error parsing regexp: missing closing ): `(`); patterns run on RE2: no lookaround or backreferences',
    ],
    [
      'a lookahead, which RE2 cannot run in linear time',
      { pattern: '^(?=a)a$' },
      'has an invalid pattern (error parsing regexp: invalid or unsupported Perl syntax: `(?=`); patterns run on RE2: no lookaround or backreferences',
    ],
    ['a default below min', { type: 'number', min: 2, value: 1 }, 'has a default below its min'],
    ['a default above max', { type: 'number', max: 2, value: 3 }, 'has a default above its max'],
    [
      'a default outside its options',
      { type: 'select', options: [{ label: 'A', value: 'a' }], value: 'b' },
      'has a default that is not one of its options',
    ],
    [
      'a numeric default given as text for a numeric option',
      { type: 'radio', options: [{ label: 'One', value: 1 }], value: '1' },
      'has a default that is not one of its options',
    ],
  ])('reports a parameter with %s, naming it', (_, over, problem) => {
    const params = paramsOf({ name: 'p', type: 'string', label: 'P', ...over });
    expect(checkDeclaration(valid({ params }))).toEqual([`parameter "p" ${problem}`]);
  });

  it("leaves the platform's own rules (options, bounds in order) to the platform rule set", () => {
    // src/publishing/platform-parameter.ts reports these at boot, for every tool at once.
    const params = paramsOf(
      { name: 'a', type: 'select', label: 'A' },
      { name: 'b', type: 'number', label: 'B', min: 5, max: 1 },
    );
    expect(checkDeclaration(valid({ params }))).toEqual([]);
  });

  it('reports a price on a transaction action, or one of the wrong shape', () => {
    const price = { amount: '0.01', token: 'USDC' };
    expect(checkDeclaration(valid({ responseType: 'data', price }))).toEqual([]);
    expect(checkDeclaration(valid({ responseType: undefined, price }))).toEqual([
      'price is for data actions only (responseType "data")',
    ]);
    expect(
      checkDeclaration(
        valid({ responseType: 'data', price: { amount: '0', token: ' ', payTo: '0x12' } }),
      ),
    ).toEqual([
      'price.amount "0" is not a positive decimal ("0.01")',
      'price.token must name a token of the chain file (USDC)',
      'price.payTo "0x12" is not an EVM address',
    ]);
  });

  it("accepts a transaction action's own webhook, and refuses one it cannot serve", () => {
    const target = (): undefined => undefined;
    const transaction = { responseType: undefined };
    expect(checkDeclaration(valid({ ...transaction, webhook: { target } }))).toEqual([]);
    expect(
      checkDeclaration(
        valid({ ...transaction, webhook: { target, fields: ['amount', 'message'] } }),
      ),
    ).toEqual([]);
    const refused = (webhook: unknown, over: Partial<ActionDeclaration> = transaction): string[] =>
      checkDeclaration(valid({ ...over, webhook } as Partial<ActionDeclaration>));
    expect(refused({ target }, {})).toEqual([
      'webhook: a data action answers no transaction, so it has no outcomes to post',
    ]);
    expect(refused({ target: 'https://hooks.example.com' })).toEqual([
      'webhook.target must be a function of the environment (its configuration)',
    ]);
    expect(refused({ target, fields: 'amount' })).toEqual([
      'webhook.fields must be names (non-empty text) of the answer’s params.args',
    ]);
    expect(refused({ target, fields: ['amount', ''] })).toEqual([
      'webhook.fields must be names (non-empty text) of the answer’s params.args',
    ]);
    expect(refused({ target, fields: ['amount', 'amount'] })).toEqual([
      'webhook.fields names one twice',
    ]);
    expect(refused({ target, fields: Array.from({ length: 17 }, (_, i) => `f${i}`) })).toEqual([
      'webhook.fields has 17 names; at most 16',
    ]);
  });

  it('reports duplicate parameter names', () => {
    const params = paramsOf(
      { name: 'x', type: 'string', label: 'X' },
      { name: 'x', type: 'number', label: 'X again' },
    );
    expect(checkDeclaration(valid({ params }))).toEqual(['duplicate parameter name "x"']);
  });

  it('reports every problem of a declaration at once', () => {
    const params = paramsOf({ name: 'p', type: 'select', label: '' });
    expect(checkDeclaration(valid({ label: '', path: 'x', params }))).toEqual([
      'missing label',
      'path "x" does not start with "/"',
      'parameter "p" has no label',
    ]);
  });
});

describe('assertValidDeclarations', () => {
  it('accepts distinct, valid declarations', () => {
    expect(() =>
      assertValidDeclarations([valid(), valid({ label: 'Other', path: '/api/other' })]),
    ).not.toThrow();
  });

  it('names the action and its problem', () => {
    expect(() => assertValidDeclarations([valid({ chains: { source: 1.5 } })])).toThrow(
      'action "Calc" (/api/calc): chains.source must be a positive integer chain id',
    );
  });

  it('names an action without label or path as such', () => {
    expect(() => assertValidDeclarations([valid({ label: '', path: '' })])).toThrow(
      'action "(no label)" (no path): missing label',
    );
  });

  it('refuses two actions on one path, naming both', () => {
    expect(() => assertValidDeclarations([valid(), valid({ label: 'Second' })])).toThrow(
      'action "Second" (/api/calc): path already used by action "Calc"',
    );
  });

  it('checks the grouping when given the registered mini-apps', () => {
    const grouping = { miniApps: [MINI_APP], iconExists: () => true };
    expect(() => assertValidDeclarations([valid()], grouping)).not.toThrow();
    expect(() => assertValidDeclarations([], grouping)).toThrow(
      'Invalid action declarations:\n  - mini-app "calc": has no action',
    );
  });

  it('lists the problems of every action in one error', () => {
    let message = '';
    try {
      assertValidDeclarations([valid({ label: '' }), valid({ label: 'B', path: 'b' })]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'Invalid action declarations:',
      '  - action "(no label)" (/api/calc): missing label',
      '  - action "B" (b): path "b" does not start with "/"',
    ]);
  });
});
