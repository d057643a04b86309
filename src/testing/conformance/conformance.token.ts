import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SessionTokens } from '../../auth/session-tokens';

/**
 * A session token of the app under test for `address`, minted by its own SessionTokens (what a
 * Sign-In with Ethereum gives): the kit checks actions, not wallets, so it needs no chain.
 */
export async function sessionToken(
  app: NestFastifyApplication,
  address: string,
  chainId: number,
): Promise<string> {
  const tokens = app.get(SessionTokens, { strict: false });
  return (await tokens.issue(address as `0x${string}`, chainId)).token;
}

/**
 * The `Authorization` header of a session of the app for `address` (by default the user the
 * conformance kit acts as) on `chainId` (default 43113): what a spec of a `user: 'verified'`
 * action sends with its calls, `postJson(app, path, body, await sessionHeaders(app, user))`. The
 * token is minted by the app's own session signer, with no wallet or chain involved; to sign in
 * as a wallet does, through the routes, use `signIn` of `src/client`.
 */
export async function sessionHeaders(
  app: NestFastifyApplication,
  address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  chainId = 43113,
): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await sessionToken(app, address, chainId)}` };
}
