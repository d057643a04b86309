import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import type { DynamicAction } from '../../src/contract/action.types';
import { checkPlatformMetadata } from '../../src/publishing/platform-metadata';
import { sdkRefusal } from '../fixtures/sherry-sdk/create-metadata';
import { createTestApp } from '../support/app.factory';
import { testLogs } from '../support/log-capture.helper';
import { proxyExecution, type RawRequest, sendRaw } from '../support/platform-sdk.helper';
import { SdkAllowsFixtureModule } from '../fixtures/sdk-allows.fixture';

interface Answer {
  status: number;
  request: RawRequest;
  body: { error?: string; data: Record<string, unknown> };
}

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const SECRET = 'zebra-crossing-7351';
const PATH = '/api/leave-note';

/**
 * Issue 21: what the platform's SDK allows on parameters (a `sender` address default, boolean
 * option values, `sensitive` and `queryParam: false`), replayed as the SDK sends it.
 */
describe('Publishing: what the SDK allows on parameters, on the wire', () => {
  let app: NestFastifyApplication;
  let port: number;
  let action: DynamicAction;

  beforeAll(async () => {
    app = await createTestApp({ actions: [SdkAllowsFixtureModule], env: { LOG_LEVEL: 'debug' } });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    const document = (await app.inject({ method: 'GET', url: PATH })).json();
    expect(checkPlatformMetadata(document)).toEqual([]);
    // The SDK's own rules (its ported createMetadata) take what the kit's say it allows.
    expect(sdkRefusal(document)).toBeUndefined();
    action = document.actions[0] as DynamicAction;
  });
  afterAll(() => app?.close());

  const run = async (
    inputs: Record<string, string | boolean | undefined>,
    user = USER,
  ): Promise<Answer> => {
    const request = proxyExecution(action, inputs, { userAddress: user, sourceChain: 43113 });
    const answer = await sendRaw(port, request);
    return { request, status: answer.status, body: JSON.parse(answer.body) as Answer['body'] };
  };

  it('publishes sender, boolean options, sensitive and queryParam as the platform expects', () => {
    expect(action.params).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'code', sensitive: true }),
        expect.objectContaining({ name: 'memo', queryParam: false }),
        expect.objectContaining({ name: 'recipient', type: 'address', value: 'sender' }),
        expect.objectContaining({
          name: 'visible',
          options: [
            { label: 'Yes', value: true },
            { label: 'No', value: false },
          ],
        }),
      ]),
    );
  });

  it("fills a 'sender' address with the acting user, per request (the SDK sends the word itself)", async () => {
    const mine = await run({ code: SECRET });
    expect(mine.request.body).toContain('"recipient":"sender"');
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      recipient: USER,
      visible: false,
      codeLength: SECRET.length,
    });
    const theirs = await run({ code: SECRET }, OTHER);
    expect(theirs.body.data.recipient).toBe(OTHER);
    const chosen = await run({ code: SECRET, recipient: OTHER });
    expect(chosen.body.data.recipient).toBe(OTHER);
  });

  it('reads boolean option values, sent as booleans or as text', async () => {
    expect((await run({ code: SECRET, visible: true })).body.data.visible).toBe(true);
    const fromQuery = await sendRaw(port, {
      target: `${PATH}?visible=true`,
      headers: [
        ['Content-Type', 'application/json'],
        ['x-user-address', USER],
      ],
      body: JSON.stringify({ params: { code: SECRET } }),
    });
    expect(JSON.parse(fromQuery.body).data.visible).toBe(true);
  });

  it('keeps sensitive and queryParam:false values out of the query, and reads them from the body only', async () => {
    const sent = await run({ code: SECRET, memo: 'hello' });
    expect(sent.request.target).not.toContain('code=');
    expect(sent.request.target).not.toContain('memo=');
    expect(sent.body.data).toMatchObject({ memo: 'hello', codeLength: SECRET.length });

    const inQuery = await sendRaw(port, {
      target: `${PATH}?code=${SECRET}&memo=from-query`,
      headers: [
        ['Content-Type', 'application/json'],
        ['x-user-address', USER],
      ],
      body: JSON.stringify({ params: {} }),
    });
    expect(inQuery.status).toBe(400);
    expect(JSON.parse(inQuery.body).error).toBe('code is required');
  });

  it('never writes a sensitive value to a log line, nor echoes it in an error', async () => {
    testLogs.clear();
    const tooShort = 'k9$x';
    const refused = await run({ code: tooShort });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).not.toContain(tooShort);
    await sendRaw(port, {
      target: `${PATH}?code=${SECRET}&visible=maybe`,
      headers: [
        ['Content-Type', 'application/json'],
        ['x-user-address', USER],
      ],
      body: JSON.stringify({ params: {} }),
    });
    await run({ code: SECRET });
    const written = testLogs.raw().join('');
    expect(written).toContain(PATH);
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(tooShort);
  });
});
