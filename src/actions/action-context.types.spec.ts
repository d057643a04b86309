import type { Address } from 'viem';
import { calculatorAction } from './calculator/calculator.action';
import { sendTokenAction } from './send-token/send-token.action';
import { type ContextOf, defineAction } from '../kit/action.decorator';

const USER: Address = '0x52908400098527886E0F7030069857D2E4169EE7';

/**
 * Type tests: `npm run typecheck` compiles this file, so each `@ts-expect-error` line fails the
 * check when the error it expects goes away. The runtime lines only exercise what they type.
 */
const userOf = (context: ContextOf<typeof sendTokenAction>): Address => context.userAddress;

const maybeUserOf = (context: ContextOf<typeof calculatorAction>): Address =>
  // @ts-expect-error without `requiresUser: true` the address may be absent
  context.userAddress;

const optional = defineAction({ ...calculatorAction, requiresUser: false });
const maybeUserOfOptional = (context: ContextOf<typeof optional>): Address =>
  // @ts-expect-error `requiresUser: false` leaves the address optional
  context.userAddress;

describe('ContextOf<typeof declaration>', () => {
  it('types the user address as present exactly when the declaration says requiresUser: true', () => {
    // @ts-expect-error a context without the address is not a requiresUser action's context
    const missing: ContextOf<typeof sendTokenAction> = { requestId: 'r' };
    expect(userOf({ requestId: 'r', userAddress: USER })).toBe(USER);
    expect(maybeUserOf({ requestId: 'r' })).toBeUndefined();
    expect(maybeUserOfOptional({ requestId: 'r' })).toBeUndefined();
    expect(missing.userAddress).toBeUndefined();
    expect([sendTokenAction.requiresUser, optional.requiresUser]).toEqual([true, false]);
  });
});
