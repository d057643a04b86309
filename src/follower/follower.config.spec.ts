import { loadFollowerConfig } from './follower.config';

describe('loadFollowerConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadFollowerConfig({})).toEqual({ pollMs: 3_000, catchupBlocks: 5_000, reorgDepth: 64 });
  });

  it('reads each variable', () => {
    expect(
      loadFollowerConfig({
        OUTCOME_POLL_MS: '500',
        OUTCOME_CATCHUP_BLOCKS: '20',
        OUTCOME_REORG_DEPTH: '8',
      }),
    ).toEqual({ pollMs: 500, catchupBlocks: 20, reorgDepth: 8 });
  });

  it.each([
    ['OUTCOME_POLL_MS', '10'],
    ['OUTCOME_CATCHUP_BLOCKS', '0'],
    ['OUTCOME_REORG_DEPTH', 'deep'],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadFollowerConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
