import type { ActionDeclaration } from '../contract/action.types';
import { amountOf, describePrice, listPrice, payeeOf } from './action-price';

const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const declaration = (price: ActionDeclaration['price']): ActionDeclaration =>
  ({
    label: 'Quote',
    path: '/api/quote',
    chains: { source: 43113 },
    responseType: 'data',
    price,
  }) as ActionDeclaration;

describe('a declaration’s price', () => {
  it('pays its own payTo, else X402_PAY_TO, else nobody (the action is then not served)', () => {
    expect(payeeOf({ amount: '1', token: 'USDC', payTo: OTHER }, { X402_PAY_TO: PAYEE })).toBe(
      OTHER,
    );
    expect(payeeOf({ amount: '1', token: 'USDC' }, { X402_PAY_TO: PAYEE })).toBe(PAYEE);
    expect(
      payeeOf(
        { amount: '1', token: 'USDC', payTo: (env) => env.TEAM_PAYEE },
        { TEAM_PAYEE: OTHER },
      ),
    ).toBe(OTHER);
    expect(payeeOf({ amount: '1', token: 'USDC' }, {})).toBeUndefined();
    expect(payeeOf({ amount: '1', token: 'USDC' }, { X402_PAY_TO: 'nobody' })).toBeUndefined();
  });

  it('prices a call with its function, and lists what the function answers without a call', () => {
    const price = {
      token: 'USDC',
      amount: ({ params }: { params?: object }) =>
        params && (params as { big?: boolean }).big ? '0.05' : '0.01',
    };
    const context = { requestId: 'r' };
    expect(amountOf(price, {}, { params: { big: true }, context })).toBe('0.05');
    expect(amountOf(price, {})).toBe('0.01');
    expect(amountOf({ amount: '0.02', token: 'USDC' }, {})).toBe('0.02');
  });

  it('describes a paid action to an agent, and says nothing of a free one', () => {
    const env = { X402_PAY_TO: PAYEE };
    const paid = declaration({ amount: '0.01', token: 'USDC' });
    expect(listPrice(paid, env)).toEqual({
      amount: '0.01',
      token: 'USDC',
      payTo: PAYEE,
      network: 'eip155:43113',
      scheme: 'exact',
      varies: false,
    });
    expect(describePrice(paid, env)).toBe(
      `Paid: 0.01 USDC per call over x402 (scheme exact, network eip155:43113, to ${PAYEE}); a call without payment is answered 402 with the PAYMENT-REQUIRED header, and nothing is charged unless the action answers with success.`,
    );
    const varying = declaration({ amount: () => '0.03', token: 'USDC' });
    expect(describePrice(varying, env)).toContain('0.03 USDC per call (as listed:');
    expect(describePrice(declaration(undefined), env)).toBeUndefined();
    expect(describePrice(paid, {})).toBeUndefined();
  });
});
