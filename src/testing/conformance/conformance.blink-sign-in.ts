import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ActionGetResponse, SignMessageResponse } from '@solana/actions-spec';
import { getAddress } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { SESSION_FIELD } from '../../blinks/blink-catalogue';
import { BlinkSeals } from '../../blinks/blink-seals';
import { type Answer, CONFORMANCE_USER, quote, send } from './conformance.request';
import { sessionToken } from './conformance.token';

/** What the sign-in of a verified action's blink gave the kit: what is wrong, and its session. */
export interface BlinkSignIn {
  problems: string[];
  /** The sealed session of CONFORMANCE_USER, when the sign-in worked. */
  session?: string;
}

/**
 * CONFORMANCE_USER's signer: Hardhat's first dev account, of its published mnemonic (DEV_MNEMONIC
 * of src/testing, written out since this folder does not import src/testing's root): no one's funds.
 */
const CONFORMANCE_SIGNER = mnemonicToAccount(
  'test test test test test test test test test test test junk',
);

const post = (app: NestFastifyApplication, path: string, body: unknown): Promise<Answer> =>
  send(app, 'POST', path, { rawBody: JSON.stringify(body) });

/**
 * A verified action's blink (docs/blinks.md, "Sign-in inside a blink") as a client meets it: the
 * action refused (401) without a session; its `message` answer an EIP-4361 message with a state
 * and links.next; that message signed by the kit's user (CONFORMANCE_SIGNER), then answered with the action, its session the first field.
 */
export async function checkBlinkSignIn(
  app: NestFastifyApplication,
  path: string,
  fields: readonly string[],
): Promise<BlinkSignIn> {
  const problems: string[] = [];
  const unsigned = await post(app, path, { account: CONFORMANCE_USER });
  if (unsigned.status !== 401) problems.push(`without a session it answered ${quote(unsigned)}`);
  const asked = await post(app, `${path}/sign-in`, { account: CONFORMANCE_USER });
  const message = asked.body as Partial<SignMessageResponse> | undefined;
  if (asked.status !== 200 || message?.type !== 'message' || typeof message.data !== 'string') {
    return { problems: [...problems, `its sign-in answered ${quote(asked)}`] };
  }
  if (typeof message.state !== 'string') problems.push('its sign-in message has no state');
  if (message.links?.next?.href !== `${path}/signed-in`) {
    problems.push(`its sign-in links to ${message.links?.next?.href}, not ${path}/signed-in`);
  }
  const signature = await CONFORMANCE_SIGNER.signMessage({ message: message.data });
  const signedIn = await post(app, message.links?.next?.href ?? `${path}/signed-in`, {
    account: CONFORMANCE_USER,
    signature,
    state: message.state,
    data: message.data,
  });
  const action = signedIn.body as ActionGetResponse | undefined;
  const [linked] = action?.links?.actions ?? [];
  const [field, ...rest] = linked?.parameters ?? [];
  const option = field && 'options' in field ? field.options[0] : undefined;
  if (signedIn.status !== 200 || field?.name !== SESSION_FIELD || option?.selected !== true) {
    return { problems: [...problems, `its signed message was answered ${quote(signedIn)}`] };
  }
  const names = rest.map((p) => p.name);
  if (names.join() !== fields.join()) {
    problems.push(
      `signed in, its fields ${names.join(', ')} are not the declared ${fields.join(', ')}`,
    );
  }
  return { problems, session: option.value };
}

/**
 * The session a sample's user carries in the blink: the sign-in's own for the kit's user; for
 * another, one sealed by the app for a session of its own (as the kit's other rules sign in).
 */
export async function sampleSession(
  app: NestFastifyApplication,
  blink: string,
  chainId: number,
  account: string,
  signedIn: string | undefined,
): Promise<string | undefined> {
  if (account.toLowerCase() === CONFORMANCE_USER.toLowerCase()) return signedIn;
  const token = await sessionToken(app, account, chainId);
  const expiresAt = Math.floor(Date.now() / 1000) + 60;
  return app
    .get(BlinkSeals, { strict: false })
    .session(blink, { token, account: getAddress(account), expiresAt });
}
