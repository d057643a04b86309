import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { LightMyRequestResponse } from 'fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { createTestApp } from '../support/app.factory';

const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const POST_URL = '/api/blinks/calculator?operation=add&a=2&b=3';

/**
 * sRFC-31's accept headers: a client that reads an older spec, or signs on other chains, is told
 * so with a 4xx naming what the blink serves, before the action runs; a newer client, or one that
 * sends neither header, is served.
 */
describe('Blinks: X-Accept-Action-Version and X-Accept-Blockchain-Ids', () => {
  let app: NestFastifyApplication;
  const call = (
    method: 'GET' | 'POST' | 'OPTIONS',
    url: string,
    headers: Record<string, string>,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      headers: { origin: 'https://wallet.example', 'content-type': 'application/json', ...headers },
      ...(method === 'POST' && { payload: JSON.stringify({ account: USER }) }),
    });
  const expectRefused = (res: LightMyRequestResponse, status: number, words: RegExp): void => {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ message: expect.stringMatching(words) });
    expect(res.headers['x-action-version']).toBe('2.4');
    expect(res.headers['x-blockchain-ids']).toBe('eip155:43113');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  };

  beforeAll(async () => {
    app = await createTestApp({ actions: [CalculatorModule] });
  }, 60_000);
  afterAll(() => app.close());

  it.each([
    ['the version served and its chain', { 'x-accept-action-version': '2.4' }],
    ['a newer version', { 'x-accept-action-version': '3.0' }],
    ['a patch of the version', { 'x-accept-action-version': '2.4.1' }],
    ['its chain among others', { 'x-accept-blockchain-ids': 'solana:5eykt, eip155:43113' }],
    ['neither header', {}],
  ])('serves a client that accepts %s', async (_what, headers) => {
    expect((await call('GET', '/api/blinks/calculator', headers)).statusCode).toBe(200);
    const post = await call('POST', POST_URL, headers);
    expect(post.statusCode).toBe(200);
    expect(post.json()).toMatchObject({ type: 'post' });
  });

  it('refuses a client of an older spec with 406 naming the version served', async () => {
    const older = { 'x-accept-action-version': '2.2' };
    expectRefused(await call('GET', '/api/blinks/calculator', older), 406, /spec 2\.4.*up to 2\.2/);
    expectRefused(await call('POST', POST_URL, older), 406, /spec 2\.4/);
    const chained = `/api/blinks/calculator/completed/${'a'.repeat(32)}`;
    expectRefused(await call('POST', chained, older), 406, /spec 2\.4/);
  });

  it('refuses a version that is not one with 400', async () => {
    const latest = { 'x-accept-action-version': 'latest' };
    expectRefused(await call('GET', '/api/blinks/calculator', latest), 400, /such as 2\.4/);
  });

  it('refuses a client whose chains leave out the blink’s with 406 naming its chain', async () => {
    const others = { 'x-accept-blockchain-ids': 'eip155:1,solana:5eykt' };
    expectRefused(await call('GET', '/api/blinks/calculator', others), 406, /eip155:43113/);
    expectRefused(await call('POST', POST_URL, others), 406, /eip155:43113/);
  });

  it('leaves actions.json and preflights to any client, and allows the headers cross-origin', async () => {
    const older = { 'x-accept-action-version': '1.0', 'x-accept-blockchain-ids': 'eip155:1' };
    expect((await call('GET', '/actions.json', older)).statusCode).toBe(200);
    const preflight = await call('OPTIONS', '/api/blinks/calculator', {
      ...older,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-accept-action-version,x-accept-blockchain-ids',
    });
    expect(preflight.statusCode).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-headers']).toMatch(
      /X-Accept-Action-Version, X-Accept-Blockchain-Ids/,
    );
  });
});
