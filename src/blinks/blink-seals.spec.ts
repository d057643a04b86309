import { decodeProtectedHeader, SignJWT } from 'jose';
import { loadAuthConfig } from '../auth/auth.config';
import { SessionTokens } from '../auth/session-tokens';
import { loadConfig } from '../config/app.config';
import { BlinkSeals, type SignInState } from './blink-seals';

const SECRET = 'OEaaSCHzT7T4ADcJ1jzbMuSgSw6iR3S8YMMft0IVMyQ=';
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const seals = (secret = SECRET, base?: string): BlinkSeals => {
  const auth = loadAuthConfig({ AUTH_SECRET: secret, AUTH_CLOCK_SKEW_S: '0' });
  const app = loadConfig({ NODE_ENV: 'test', ...(base && { PUBLIC_BASE_URL: base }) });
  return new BlinkSeals(auth, new SessionTokens(auth, app));
};
const inAMinute = (): Date => new Date(Date.now() + 60_000);
const STATE: SignInState = {
  account: ACCOUNT,
  chainId: 43113,
  nonce: 'abcdefgh12345678',
  domain: 'actions.test',
  uri: 'https://actions.test',
  issuedAt: new Date('2026-01-01T00:00:00.123Z'),
  expirationTime: inAMinute(),
};

/** The JWS with one claim of its payload changed, its MAC kept. */
function withClaim(jws: string, claim: string, value: unknown): string {
  const [header, payload, mac] = jws.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object;
  const changed = Buffer.from(JSON.stringify({ ...claims, [claim]: value })).toString('base64url');
  return [header, changed, mac].join('.');
}

describe('BlinkSeals: what a blink’s sign-in seals', () => {
  it('reads back every field of the message it sealed, to the millisecond', async () => {
    const expirationTime = new Date(Math.floor(Date.now() / 1000 + 60) * 1000);
    const state = await seals().state('my-transactions', { ...STATE, expirationTime });
    expect(await seals().readState('my-transactions', state)).toEqual({
      ...STATE,
      expirationTime,
    });
  });

  it.each([
    ['sub', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
    ['nonce', 'zzzzzzzz12345678'],
    ['chain', 1],
    ['domain', 'evil.example'],
    ['uri', 'https://evil.example'],
    ['issued', '2030-01-01T00:00:00.000Z'],
    ['exp', 4_102_444_800],
  ])('refuses a state whose %s was changed (the MAC covers it)', async (claim, value) => {
    const state = await seals().state('my-transactions', STATE);
    expect(await seals().readState('my-transactions', withClaim(state, claim, value))).toEqual({
      refused: 'invalid',
    });
  });

  it('refuses a state of another blink, another key, another service, or past its time', async () => {
    const state = await seals().state('my-transactions', STATE);
    expect(await seals().readState('send-token', state)).toEqual({ refused: 'invalid' });
    expect(
      await seals(Buffer.alloc(32, 7).toString('base64')).readState('my-transactions', state),
    ).toEqual({ refused: 'invalid' });
    expect(
      await seals(SECRET, 'https://staging.example').readState('my-transactions', state),
    ).toEqual({ refused: 'invalid' });
    const expired = await seals().state('my-transactions', {
      ...STATE,
      expirationTime: new Date(Date.now() - 2_000),
    });
    expect(await seals().readState('my-transactions', expired)).toEqual({ refused: 'expired' });
  });

  it('is no session token, and a session token is no state (keys of their own)', async () => {
    const auth = loadAuthConfig({ AUTH_SECRET: SECRET });
    const token = await new SessionTokens(auth, loadConfig({ NODE_ENV: 'test' })).issue(
      ACCOUNT,
      43113,
    );
    expect(await seals().readState('my-transactions', token.token)).toEqual({
      refused: 'invalid',
    });
    // A state signed with AUTH_SECRET itself (the sessions' key) does not pass either.
    const raw = await new SignJWT({ chain: 43113 })
      .setProtectedHeader({ alg: 'HS256', typ: 'blink-sign-in+jwt' })
      .setSubject(ACCOUNT)
      .setExpirationTime('1m')
      .sign(auth.secret);
    expect(await seals().readState('my-transactions', raw)).toEqual({ refused: 'invalid' });
  });

  it('seals a session the client cannot read, bound to its blink and short-lived', async () => {
    const token = 'header.payload.signature';
    const expiresAt = Math.floor(Date.now() / 1000) + 3_600;
    const sealed = await seals().session('my-transactions', { token, account: ACCOUNT, expiresAt });
    expect(decodeProtectedHeader(sealed)).toMatchObject({ alg: 'dir', enc: 'A256GCM' });
    expect(sealed).not.toContain(Buffer.from(token).toString('base64url'));
    const opened = await seals().openSession('my-transactions', sealed);
    expect(opened).toMatchObject({ token, account: ACCOUNT });
    // AUTH_NONCE_TTL_S (300 s by default), not the token's hour.
    const life = (opened as { expiresAt: number }).expiresAt - Date.now() / 1000;
    expect(life).toBeGreaterThan(200);
    expect(life).toBeLessThanOrEqual(300);
    expect(await seals().openSession('send-token', sealed)).toEqual({ refused: 'invalid' });
    const flipped = `${sealed.slice(0, -3)}${sealed.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect(await seals().openSession('my-transactions', flipped)).toEqual({ refused: 'invalid' });
  });

  it('never outlives the session token it carries', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) - 5;
    const sealed = await seals().session('my-transactions', {
      token: 't',
      account: ACCOUNT,
      expiresAt,
    });
    expect(await seals().openSession('my-transactions', sealed)).toEqual({ refused: 'expired' });
  });
});
