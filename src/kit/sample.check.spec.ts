import type { ActionDeclaration } from '../contract/action.types';
import { defineMiniApp } from './mini-app';
import { ActionParam } from './action-param.decorator';
import { checkSamples } from './sample.check';

class Params {
  @ActionParam({
    type: 'select',
    label: 'Tier',
    required: true,
    options: [{ label: 'One', value: 'one' }],
  })
  tier?: string;

  @ActionParam({ type: 'number', label: 'Amount', max: 10 })
  amount?: number;
}

const declaration = (over: Partial<ActionDeclaration>): ActionDeclaration => ({
  label: 'Samples',
  path: '/api/samples',
  chains: { source: 43113 },
  params: Params,
  miniApp: defineMiniApp({ id: 'samples', title: 'Samples', description: 'Samples' }),
  ...over,
});

const USER = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

describe('checkSamples', () => {
  it('accepts samples the action itself accepts', () => {
    const samples = [
      { params: { tier: 'one', amount: '3' } },
      { params: { tier: 'one' }, userAddress: USER },
    ];
    expect(checkSamples(declaration({ samples }))).toEqual([]);
  });

  it('names each sample its own rules refuse, and why', () => {
    const samples = [{ params: { tier: 'one' } }, { params: { tier: 'two', amount: 11 } }];
    expect(checkSamples(declaration({ samples }))).toEqual([
      "sample 2 is refused by the action's own rules: tier must be one of: one, amount must be at most 10",
    ]);
  });

  it('names a sample without the user an action requires, or with a bad address', () => {
    const samples = [{ params: { tier: 'one' } }, { params: { tier: 'one' }, userAddress: '0x12' }];
    expect(checkSamples(declaration({ samples, requiresUser: true }))).toEqual([
      'sample 1 has no userAddress, which the action requires',
      'sample 2 has a userAddress that is not an address',
    ]);
  });
});
