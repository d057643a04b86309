import { CalculatorModule } from '../actions/calculator/calculator.module';
import { SwapQuoteModule } from '../actions/swap-quote/swap-quote.module';
import { servedActionModules } from './served-actions';

describe('servedActionModules', () => {
  const modules = [CalculatorModule, SwapQuoteModule];

  it('serves a paid action only when someone would be paid (X402_PAY_TO)', () => {
    expect(servedActionModules(modules, {})).toEqual([CalculatorModule]);
    expect(
      servedActionModules(modules, { X402_PAY_TO: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
    ).toEqual(modules);
  });
});
