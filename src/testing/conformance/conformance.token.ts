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
