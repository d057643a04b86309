import type { DynamicAction } from '../contract/action.types';
import { serializeUnsigned } from '../evm/transaction/tx-serialization';
import { errorOf, postAnswer } from './blink-answers';
import type { Blink } from './blink-catalogue';
import type { Dispatched } from './blink-dispatch';

const INTENT = 'a'.repeat(32);
const action: DynamicAction = {
  type: 'dynamic',
  label: 'Best swap',
  chains: { source: 43113 },
  path: '/api/best-swap',
};
const blink = (responseType?: 'data'): Blink => ({
  name: 'best-swap',
  action: { ...action, ...(responseType && { responseType }) },
  blockchainIds: ['eip155:43113'],
  href: '/api/blinks/best-swap',
  signIn: false,
});
const answered = (body: Record<string, unknown>, intent = true, status = 200): Dispatched => ({
  status,
  headers: intent ? { 'x-action-intent': INTENT } : {},
  body,
});
const USDC = '0x5425890298aed601595a70AB815c96711a31Bc65';
const ROUTER = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
// The Sherry route's RLP; the blink answers the same transaction in the wallet adapter's format.
const rlp = (to: `0x${string}`): string =>
  serializeUnsigned({ chainId: 43113, to, data: '0x095ea7b3' }, 'rlp');
const walletJson = (to: string): string =>
  `{"to":"${to}","data":"0x095ea7b3","value":{"__type":"bigint","value":"0"},"chainId":43113}`;
const approval = (step: number, steps: number): Record<string, unknown> => ({
  serializedTransaction: rlp(USDC),
  chainId: 43113,
  params: { functionName: 'approve', args: { step, steps, summary: `Step ${step} of ${steps}` } },
});

describe('postAnswer (the action’s answer → the spec’s)', () => {
  const inputs = { tokenIn: 'USDC', amountIn: '10', exact: true };

  it('chains an approval to the next step, with the same values', () => {
    expect(postAnswer(blink(), answered(approval(1, 2)), inputs).body).toEqual({
      type: 'transaction',
      transaction: walletJson(USDC),
      message: 'Step 1 of 2',
      links: {
        next: {
          type: 'post',
          href: `/api/blinks/best-swap/next/${INTENT}?tokenIn=USDC&amountIn=10&exact=true`,
        },
      },
    });
  });

  it('chains the action itself (and an approval of the last step) to completed', () => {
    const swap = { serializedTransaction: rlp(ROUTER), chainId: 43113 };
    for (const body of [swap, approval(2, 2)]) {
      expect(postAnswer(blink(), answered(body), inputs).body).toMatchObject({
        links: { next: { type: 'post', href: `/api/blinks/best-swap/completed/${INTENT}` } },
      });
    }
    expect(postAnswer(blink(), answered(swap), inputs).body).toMatchObject({
      transaction: walletJson(ROUTER),
      message: 'Best swap',
    });
  });

  it('links nothing on when no intent was recorded', () => {
    expect(postAnswer(blink(), answered(approval(1, 2), false), inputs).body).not.toHaveProperty(
      'links',
    );
  });

  it('answers a data action as a post with its message, else its data', () => {
    const data = blink('data');
    expect(postAnswer(data, answered({ success: true, message: 'Result: 5' }), {}).body).toEqual({
      type: 'post',
      message: 'Result: 5',
    });
    expect(postAnswer(data, answered({ success: true, data: { a: 1 } }), {}).body).toEqual({
      type: 'post',
      message: '{"a":1}',
    });
  });

  it('words an error from the message, then the error, then the status', () => {
    expect(errorOf(answered({ error: 'Bad', message: 'Say why' }, false, 400))).toEqual({
      status: 400,
      body: { message: 'Say why' },
    });
    expect(errorOf(answered({ error: 'Bad' }, false, 422)).body).toEqual({ message: 'Bad' });
    expect(errorOf(answered({}, false, 502)).body).toEqual({ message: 'The action failed (502)' });
  });
});
