import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { installFastAsyncResourceBind } from './fast-async-bind';

describe('installFastAsyncResourceBind', () => {
  const store = new AsyncLocalStorage<string>();

  beforeAll(() => installFastAsyncResourceBind());

  it('runs the bound function in the async context of the bind, not of the call', () => {
    const bound = store.run('at bind', () => AsyncResource.bind(() => store.getStore()));
    expect(store.run('at call', bound)).toBe('at bind');
    const resource = store.run('resource', () => new AsyncResource('test'));
    expect(
      store.run(
        'at call',
        resource.bind(() => store.getStore()),
      ),
    ).toBe('resource');
  });

  it('passes arguments, result and `this` as Node does', () => {
    function thisAndSum(this: unknown, a: number, b: number): [unknown, number] {
      return [this, a + b];
    }
    const receiver = { name: 'receiver' };
    const unbound = AsyncResource.bind(thisAndSum);
    expect(unbound.call(receiver, 2, 3)).toEqual([receiver, 5]);
    const fixed = AsyncResource.bind(thisAndSum, 'test', { name: 'fixed' });
    expect(fixed.call(receiver, 2, 3)).toEqual([{ name: 'fixed' }, 5]);
  });

  it("keeps the function's length", () => {
    expect(AsyncResource.bind(() => 0).length).toBe(0);
    expect(AsyncResource.bind((a: number, b: number) => a + b).length).toBe(2);
  });

  it('leaves out the deprecated asyncResource property (DEP0172)', () => {
    expect('asyncResource' in AsyncResource.bind(() => 0)).toBe(false);
  });

  it('refuses what is no function as Node does', () => {
    const notAFunction = 'no function' as unknown as () => void;
    expect(() => AsyncResource.bind(notAFunction)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }) as Error,
    );
  });

  it('installs once, however often it is called', () => {
    const installed = AsyncResource.prototype.bind;
    installFastAsyncResourceBind();
    expect(AsyncResource.prototype.bind).toBe(installed);
  });
});
