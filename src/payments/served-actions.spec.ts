import { Module } from '@nestjs/common';
import type { ActionDeclaration } from '../contract/action.types';
import type { MiniAppDeclaration } from '../contract/mini-app.types';
import { ActionController } from '../kit/action.decorator';
import { servedActionModules } from './served-actions';

const miniApp = { id: 'tools', title: 'Tools', description: 'Tools' } as MiniAppDeclaration;
const declared = (path: string, price?: ActionDeclaration['price']): ActionDeclaration => ({
  label: path,
  path,
  chains: { source: 43113 },
  responseType: 'data',
  miniApp,
  ...(price && { price }),
});

@ActionController(declared('/api/free'))
class FreeController {}
@Module({ controllers: [FreeController] })
class FreeModule {}

@ActionController(declared('/api/paid', { amount: '0.01', token: 'USDC' }))
class PaidController {}
@Module({ controllers: [PaidController] })
class PaidModule {}

describe('servedActionModules', () => {
  const modules = [FreeModule, PaidModule];

  it('serves a paid action only when someone would be paid (X402_PAY_TO)', () => {
    expect(servedActionModules(modules, {})).toEqual([FreeModule]);
    expect(
      servedActionModules(modules, { X402_PAY_TO: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
    ).toEqual(modules);
  });
});
