import type { ActionException } from '../contract/action.exception';
import { parseStrict } from '../auth/siwe-message';
import type { Blink } from './blink-catalogue';
import {
  assertAccount,
  readSignedIn,
  signedInAction,
  signInMessage,
  takeSession,
} from './blink-sign-in';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const blink: Blink = {
  name: 'verified-transfer',
  action: {
    type: 'dynamic',
    label: 'Verified\ntransfer',
    chains: { source: 43113 },
    path: '/api/verified-transfer',
  },
  blockchainIds: ['eip155:43113'],
  href: '/api/blinks/verified-transfer?amount={amount}',
  signIn: true,
  linked: {
    type: 'transaction',
    label: 'Verified transfer',
    href: '/api/blinks/verified-transfer?amount={amount}',
    parameters: [{ type: 'text', name: 'amount', label: 'Amount' }],
  },
};
const document = {
  type: 'action' as const,
  title: 'Verified transfer',
  description: 'Sends coins',
  label: 'Verified transfer',
};

const thrown = (run: () => unknown): ActionException => {
  try {
    run();
  } catch (error) {
    return error as ActionException;
  }
  throw new Error('nothing thrown');
};

describe('a blink’s sign-in', () => {
  it('writes a message the sign-in route reads back exactly, its statement on one line', () => {
    const message = signInMessage(blink, {
      account: ACCOUNT,
      chainId: 43113,
      nonce: 'abcdefgh12345678',
      domain: 'actions.test',
      uri: 'https://actions.test',
      issuedAt: new Date('2026-01-01T00:00:00.000Z'),
      expirationTime: new Date('2026-01-01T00:05:00.000Z'),
    });
    expect(parseStrict(message)).toMatchObject({
      address: ACCOUNT,
      chainId: 43113,
      nonce: 'abcdefgh12345678',
      statement: 'Sign in to use Verified transfer in its blink.',
      expirationTime: new Date('2026-01-01T00:05:00.000Z'),
    });
  });

  it('reads {account, signature, state, data?}, refusing each malformed field with a 400', () => {
    const body = { account: ACCOUNT.toLowerCase(), signature: '0xabcd', state: 's' };
    expect(readSignedIn(body)).toEqual({ ...body, account: ACCOUNT });
    expect(readSignedIn({ ...body, data: 'm' })).toMatchObject({ data: 'm' });
    for (const [bad, words] of [
      [{ ...body, signature: 'abcd' }, /signature/],
      [{ ...body, signature: `0x${'ab'.repeat(20_000)}` }, /signature/],
      [{ ...body, state: undefined }, /state/],
      [{ ...body, state: 'x'.repeat(5_000) }, /state/],
      [{ ...body, data: { message: 'm' } }, /data/],
      [{ ...body, account: 'me' }, /account/],
    ] as const) {
      const error = thrown(() => readSignedIn(bad));
      expect([error.getStatus(), error.details.message]).toEqual([
        400,
        expect.stringMatching(words),
      ]);
    }
  });

  it('takes the session out of data, leaving the action’s values', () => {
    const body = { account: ACCOUNT, data: { amount: '1', blinkSession: 'sealed' } };
    expect(takeSession(body)).toEqual({
      session: 'sealed',
      body: { account: ACCOUNT, data: { amount: '1' } },
    });
    expect(takeSession({ account: ACCOUNT })).toEqual({ body: { account: ACCOUNT } });
    const error = thrown(() => takeSession({ data: { blinkSession: ['a', 'b'] } }));
    expect(error.getStatus()).toBe(400);
  });

  it('answers the action with the session as its first field, selected; after an approval, a button', () => {
    const signedIn = { sealed: 'sealed', account: ACCOUNT } as const;
    const action = signedInAction(blink, document, signedIn, {});
    expect(action).toMatchObject({
      type: 'action',
      description: `Signed in as ${ACCOUNT}. Sends coins`,
    });
    const [linked] = action.links!.actions;
    expect(linked.href).toBe(blink.linked!.href);
    expect(linked.parameters).toEqual([
      {
        type: 'select',
        name: 'blinkSession',
        label: 'Signed in as',
        required: true,
        options: [{ label: '0xf39F…2266', value: 'sealed', selected: true }],
      },
      { type: 'text', name: 'amount', label: 'Amount' },
    ]);
    const again = signedInAction(blink, document, signedIn, { amount: '2' });
    expect(again.links!.actions[0]).toMatchObject({
      type: 'transaction',
      href: '/api/blinks/verified-transfer?amount=2',
      parameters: [{ name: 'blinkSession' }],
    });
  });

  it('refuses a sign-in or session of another account with a 403', () => {
    expect(() => assertAccount(ACCOUNT, ACCOUNT)).not.toThrow();
    const error = thrown(() => assertAccount(ACCOUNT, OTHER));
    expect([error.getStatus(), error.details.code]).toEqual([403, 'USER_MISMATCH']);
  });
});
