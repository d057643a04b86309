import { HttpStatus } from '@nestjs/common';
import type { Action, LinkedAction, TypedActionParameter } from '@solana/actions-spec';
import { type Address, type Hex, isHex } from 'viem';
import { writeSiweMessage } from '../auth/siwe-message';
import { ActionException } from '../contract/action.exception';
import {
  type Blink,
  type BlinkDocument,
  blinkPath,
  SESSION_FIELD,
  type WithoutIcon,
} from './blink-catalogue';
import { badRequest, inputsQuery, readAccount } from './blink-request';
import type { BlinkSeals, Refused, SignInState } from './blink-seals';

type Bag = Record<string, unknown>;

/** Longest signature read (an ERC-6492 signature carries its factory's call), state and message. */
const MAX_SIGNATURE = 32_768;
const MAX_SEALED = 4_096;

/** The EIP-4361 message a blink asks the wallet to sign: written by src/auth, from the state. */
export function signInMessage(blink: Blink, state: SignInState): string {
  const label = blink.action.label.replace(/\s+/g, ' ');
  return writeSiweMessage({
    ...state,
    address: state.account,
    statement: `Sign in to use ${label} in its blink.`,
  });
}

/** `{account, signature, state, data?}` of the POST after the wallet signed (links.next). */
export interface SignedInRequest {
  account: Address;
  signature: Hex;
  state: string;
  /** The message as the client relays it (spec 2.4's `data`): when sent, it must be unchanged. */
  data?: string;
}

/** Reads that body; a malformed field is a 400 naming it (the sign-in route checks the rest). */
export function readSignedIn(body: unknown): SignedInRequest {
  const { account, body: bag } = readAccount(body);
  const { signature, state, data } = bag;
  if (typeof signature !== 'string' || !isHex(signature) || signature.length > MAX_SIGNATURE) {
    throw badRequest('signature must be the wallet’s signature of the message (0x hex)');
  }
  if (typeof state !== 'string' || state === '' || state.length > MAX_SEALED) {
    throw badRequest('state must be the state of the sign-in answer, unchanged');
  }
  if (data !== undefined && typeof data !== 'string') {
    throw badRequest('data must be the message of the sign-in answer, unchanged');
  }
  return { account, signature, state, ...(data !== undefined && { data }) };
}

/** No proof of sign-in, or none that holds: 401 UNVERIFIED_USER, in words that say what to do. */
export const unverified = (message: string): ActionException =>
  new ActionException(HttpStatus.UNAUTHORIZED, 'Not signed in', {
    message,
    code: 'UNVERIFIED_USER',
  });

/** Why a state or a session proves nothing, as the client reads it. */
export function sealRefusal(what: 'sign-in message' | 'session', refused: Refused): never {
  if (refused.refused === 'expired') {
    throw unverified(`The blink’s ${what} has expired: sign in again`);
  }
  if (what === 'session') throw unverified('The blink’s session is not valid: sign in again');
  throw badRequest('state is not the state this blink’s sign-in answered (it was changed)');
}

/** The one account a state or session was given to. */
export function assertAccount(sealedFor: Address, account: Address): void {
  if (sealedFor === account) return;
  throw new ActionException(HttpStatus.FORBIDDEN, 'Another account', {
    message: `This sign-in is ${sealedFor}’s, not ${account}’s: sign in with that wallet`,
    code: 'USER_MISMATCH',
  });
}

/**
 * The session token of a signed-in blink's POST, opened from its seal: bound to this blink and to
 * `account`, within its short life. The action's route then checks the token as any other
 * (signature, audience, deny-list, chain, the user it names).
 */
export async function sessionToken(
  seals: BlinkSeals,
  blink: string,
  account: Address,
  sealed: string | undefined,
): Promise<string> {
  if (sealed === undefined) {
    throw unverified(
      `This action needs you signed in: sign in with your wallet in the blink first (data.${SESSION_FIELD} is its session)`,
    );
  }
  const session = await seals.openSession(blink, sealed);
  if ('refused' in session) sealRefusal('session', session);
  assertAccount(session.account, account);
  return session.token;
}

/**
 * The session a POST carries in `data` (SESSION_FIELD), taken out of the action's values: the
 * rest are read as any blink's (readInputs, which refuses a name the action does not declare).
 */
export function takeSession(body: Bag): { session?: string; body: Bag } {
  const { data } = body;
  if (typeof data !== 'object' || data === null || !Object.hasOwn(data, SESSION_FIELD)) {
    return { body };
  }
  const { [SESSION_FIELD]: session, ...values } = data as Bag;
  if (typeof session !== 'string' || session === '' || session.length > MAX_SEALED) {
    throw badRequest(`data.${SESSION_FIELD} must be the session the sign-in answered, unchanged`);
  }
  return { session, body: { ...body, data: values } };
}

/**
 * The session as a field of the action: a `select` with one option, selected, showing who is
 * signed in. Dialect's form posts a selected option as the field's value (its default), in the
 * POST's `data`, never in the href: the session travels in bodies only.
 */
const sessionField = (sealed: string, account: Address): TypedActionParameter => ({
  type: 'select',
  name: SESSION_FIELD,
  label: 'Signed in as',
  required: true,
  options: [
    { label: `${account.slice(0, 6)}…${account.slice(-4)}`, value: sealed, selected: true },
  ],
});

/**
 * The action itself once signed in: its own linked action (fields templated in the href, as any
 * blink's) with the session as its first field. After an approval (values already chosen, in
 * `inputs`), a button that runs it with them.
 */
export function signedInAction(
  blink: Blink,
  document: BlinkDocument,
  signedIn: { sealed: string; account: Address },
  inputs: Record<string, string | boolean>,
): WithoutIcon<Action> {
  const { linked } = blink;
  const session = sessionField(signedIn.sealed, signedIn.account);
  const query = inputsQuery(inputs);
  const action: LinkedAction =
    query === '' && linked
      ? { ...linked, parameters: [session, ...(linked.parameters ?? [])] }
      : {
          type: blink.action.responseType === 'data' ? 'post' : 'transaction',
          label: blink.action.label,
          href: query === '' ? blinkPath(blink.name) : `${blinkPath(blink.name)}?${query}`,
          parameters: [session],
        };
  return {
    ...document,
    type: 'action',
    description: `Signed in as ${signedIn.account}. ${document.description}`,
    links: { actions: [action] },
  };
}
