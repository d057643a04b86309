import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FormActionComponent } from '@dialectlabs/blinks-core';
import type { ActionGetResponse, SignMessageResponse } from '@solana/actions-spec';
import { type Address, getAddress, type HDAccount, parseEther, verifyMessage } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { BlinkSeals } from '../../src/blinks/blink-seals';
import { INTENT_STORE, type IntentStore } from '../../src/outcomes/intent-store';
import { startTestChain, type TestChain } from '../../src/testing/local-chain';
import { counterfactualWallet, deploySmartWallet } from '../../src/testing/evm/smart-wallets';
import { VerifiedTransferModule } from '../fixtures/verified-transfer.fixture';
import { createTestApp } from '../support/app.factory';
import {
  BlinkInstance,
  dialectWallet,
  type DialectWallet,
  execute,
  useFormDefaults,
} from '../support/blink-client.helper';
import { testLogs } from '../support/log-capture.helper';

const SECRET = 'm0Q2yq3b6dQn3d1l0kq8b7Sg3t4qGZk9m7rQ5pX2c1w=';
const TRANSFER = '/api/blinks/verified-transfer';

/** Every request Dialect's client made, as it made it: the URL, the body, the answer's headers. */
interface Fetched {
  url: string;
  body: string;
  headers: Headers;
}

/**
 * A verified action through its blink, driven by Dialect's own client (blinks-core 0.20.7 and
 * the EVM adapter of @dialectlabs/blinks 0.22.5 on wagmi's mock connector: test/support/
 * blink-client.helper.ts): the blink opens with a `message` (EIP-4361, on a fresh nonce), the
 * wallet signs it, links.next answers the action with its session, and the action's transaction,
 * signed by the same wallet, lands. The session rides in bodies only.
 */
describe('Sign-in inside a blink, driven by Dialect’s client on a local chain', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let base: string;
  const fetched: Fetched[] = [];
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    testChain = await startTestChain();
    app = await createTestApp({
      env: { ...testChain.env, AUTH_SECRET: SECRET },
      actions: [VerifiedTransferModule, MyTransactionsModule],
    });
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    // The client's every request is kept: no session may appear in a URL.
    globalThis.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      const body = typeof init?.body === 'string' ? init.body : '';
      fetched.push({ url, body, headers: response.headers });
      return response;
    };
  }, 120_000);
  const wallets: DialectWallet[] = [];
  const walletOf = async (index: number): Promise<DialectWallet> => {
    const wallet = await dialectWallet(testChain, testChain.users[index].address);
    wallets.push(wallet);
    return wallet;
  };
  afterAll(async () => {
    globalThis.fetch = realFetch;
    for (const wallet of wallets) await wallet.close();
    await app?.close();
    await testChain?.stop();
  });

  /** Fetches a blink, signs in through its `message` action: the signed-in action and its session. */
  async function signIn(path: string, wallet: DialectWallet) {
    const blink = await BlinkInstance.fetch(`${base}${path}`);
    expect(await blink.isSupported(wallet.adapter)).toEqual({ isSupported: true });
    const [button] = blink.actions;
    const step = await execute(blink, button, wallet);
    const action = step.next as BlinkInstance;
    const [form] = action.actions;
    const field = form.parameters[0] as { options: { value: string }[] };
    return { blink, step, action, form, session: field.options[0].value };
  }

  it('message → sign → next → the action, usable → post → its transaction lands', async () => {
    const wallet = await walletOf(0);
    const { blink, step, action, form, session } = await signIn(TRANSFER, wallet);
    expect(blink.metadata).toEqual({ version: '2.4', blockchainIds: ['eip155:43113'] });
    expect([blink.disabled, blink.actions.map((a) => [a.type, a.label])]).toEqual([
      false,
      [['message', 'Sign in with your wallet']],
    ]);

    // The message: EIP-4361 for this wallet, this service and the action's chain, a fresh nonce.
    const answer = step.response as SignMessageResponse;
    const message = answer.data as string;
    expect(parseSiweMessage(message)).toMatchObject({
      address: wallet.address,
      chainId: 43113,
      domain: new URL(base).host,
      uri: base,
      version: '1',
      nonce: expect.stringMatching(/^[a-zA-Z0-9]{8,}$/),
    });
    expect(answer.state).toEqual(expect.any(String));
    expect(answer.links.next).toEqual({ type: 'post', href: `${TRANSFER}/signed-in` });
    expect(
      await verifyMessage({ address: wallet.address, message, signature: step.signedMessage! }),
    ).toBe(true);

    // links.next: the action itself, enabled, its session the first field, selected.
    expect(action.type).toBe('action');
    expect(action.disabled).toBe(false);
    expect(action.description).toMatch(new RegExp(`^Signed in as ${wallet.address}\\. `));
    expect(await action.isSupported(wallet.adapter)).toEqual({ isSupported: true });
    expect(form.type).toBe('transaction');
    expect(form.parameters.map((p) => [p.name, p.type])).toEqual([
      ['blinkSession', 'select'],
      ['recipient', 'text'],
      ['amount', 'text'],
    ]);

    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    useFormDefaults(form);
    const fields = form as FormActionComponent;
    fields.setValue(recipient, 'recipient');
    fields.setValue('0.25', 'amount');
    const sent = await execute(action, fields, wallet);
    expect(sent.response).toMatchObject({ type: 'transaction', message: /^Send 0\.25 to / });
    expect(sent.receipt).toMatchObject({ status: 'success', from: wallet.address.toLowerCase() });
    const { publicClient } = testChain.chain;
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther('0.25'));
    expect(sent.next?.type).toBe('completed');

    // The transaction answer names its intent as the platform route does, recorded as `siwe`.
    const post = fetched.find((f) => f.url.startsWith(`${base}${TRANSFER}?`))!;
    const intent = post.headers.get('x-action-intent');
    expect(intent).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(sent.response.links?.next).toEqual({
      type: 'post',
      href: `${TRANSFER}/completed/${intent}`,
    });
    const stored = await app.get<IntentStore>(INTENT_STORE).get(intent!);
    expect(stored?.intent).toMatchObject({ userLevel: 'siwe', user: wallet.address });

    // The session travelled in bodies only: in no URL the client asked for, in no log line.
    const opened = await app.get(BlinkSeals).openSession('verified-transfer', session);
    if ('refused' in opened) throw new Error(`the session did not open: ${opened.refused}`);
    expect(post.body).toContain(session);
    for (const secret of [session, opened.token, encodeURIComponent(session)]) {
      expect(fetched.filter((f) => f.url.includes(secret))).toEqual([]);
      expect(testLogs.raw().filter((line) => line.includes(secret))).toEqual([]);
    }
  });

  it('a verified data action: signed in, it answers the user’s own records as a `post`', async () => {
    const wallet = await walletOf(1);
    const { form } = await signIn('/api/blinks/my-transactions', wallet);
    expect(form.type).toBe('post');
    expect(form.parameters.map((p) => p.name)).toEqual(['blinkSession', 'limit']);
    useFormDefaults(form);
    (form as FormActionComponent).setValue('5', 'limit');
    const step = await execute(form.parent, form, wallet);
    expect(step.response).toEqual({ type: 'post', message: 'No transactions yet' });
  });

  describe('refusals, each a clear 4xx in the spec’s shape', () => {
    let user: HDAccount;
    let other: HDAccount;
    beforeAll(() => {
      [, , user, other] = testChain.users;
    });
    const post = async (url: string, body: unknown) => {
      const response = await realFetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { message: string } };
    };
    /** The sign-in answer for `account`, and the body that posts its signature by `signer`. */
    const messageFor = async (account: Address, signer: HDAccount, path = TRANSFER) => {
      const { body } = await post(`${path}/sign-in`, { account, type: 'message' });
      const { data, state } = body as unknown as SignMessageResponse;
      const signature = await signer.signMessage({ message: data as string });
      return { account, signature, state: state!, data: data as string };
    };

    it('values chosen before (an approval’s) ride the hrefs to a button that keeps them', async () => {
      const { body } = await post(`${TRANSFER}/sign-in?amount=0.5`, { account: user.address });
      const answer = body as unknown as SignMessageResponse;
      expect(answer.links.next.href).toBe(`${TRANSFER}/signed-in?amount=0.5`);
      const signature = await user.signMessage({ message: answer.data as string });
      const signedIn = await post(answer.links.next.href, {
        account: user.address,
        signature,
        state: answer.state,
      });
      const [button] = (signedIn.body as unknown as ActionGetResponse).links!.actions;
      expect(button).toMatchObject({ type: 'transaction', href: `${TRANSFER}?amount=0.5` });
      expect(button.parameters?.map((p) => p.name)).toEqual(['blinkSession']);
    });

    it('smart wallets sign in as on /api/auth/siwe: ERC-1271 deployed, ERC-6492 not yet', async () => {
      const deployed = await deploySmartWallet(testChain.chain, user);
      const undeployed = await counterfactualWallet(testChain.chain, user);
      for (const [address, sign] of [
        [deployed, (message: string) => user.signMessage({ message })],
        [undeployed.address, undeployed.signMessage],
      ] as const) {
        const { body } = await post(`${TRANSFER}/sign-in`, { account: address });
        const { data, state } = body as unknown as SignMessageResponse;
        const signature = await sign(data as string);
        const signedIn = await post(`${TRANSFER}/signed-in`, {
          account: address,
          signature,
          state,
        });
        expect([
          signedIn.status,
          (signedIn.body as unknown as ActionGetResponse).description,
        ]).toEqual([200, expect.stringContaining(`Signed in as ${address}.`)]);
      }
      expect(await testChain.chain.publicClient.getCode({ address: undeployed.address })).toBe(
        undefined,
      );
    });

    it('a signature by another wallet: 401, and the nonce still serves its owner', async () => {
      const forged = await messageFor(user.address, other);
      const refused = await post(`${TRANSFER}/signed-in`, forged);
      expect(refused).toEqual({
        status: 401,
        body: { message: expect.stringMatching(/signature is not/) },
      });
      const signature = await user.signMessage({ message: forged.data });
      expect((await post(`${TRANSFER}/signed-in`, { ...forged, signature })).status).toBe(200);
    });

    it('a replayed sign-in: the nonce is used once, 401', async () => {
      const signed = await messageFor(user.address, user);
      expect((await post(`${TRANSFER}/signed-in`, signed)).status).toBe(200);
      expect(await post(`${TRANSFER}/signed-in`, signed)).toEqual({
        status: 401,
        body: { message: expect.stringMatching(/nonce is unknown, used or expired/) },
      });
    });

    it('a tampered state, another blink’s, or a changed message: 400; another account: 403', async () => {
      const signed = await messageFor(user.address, user);
      const [header, payload, mac] = signed.state.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object;
      const forged = Buffer.from(JSON.stringify({ ...claims, nonce: 'abcdefgh12345678' }));
      const tampered = [header, forged.toString('base64url'), mac].join('.');
      const state = /state is not the state/;
      for (const body of [
        { ...signed, state: tampered },
        { ...signed, state: `${signed.state.slice(0, -2)}AA` },
      ]) {
        expect(await post(`${TRANSFER}/signed-in`, body)).toEqual({
          status: 400,
          body: { message: expect.stringMatching(state) },
        });
      }
      expect((await post('/api/blinks/my-transactions/signed-in', signed)).body.message).toMatch(
        state,
      );
      const changed = { ...signed, data: signed.data.replace('Sign in', 'Sign up') };
      expect(await post(`${TRANSFER}/signed-in`, changed)).toEqual({
        status: 400,
        body: { message: expect.stringMatching(/data must be the message/) },
      });
      expect(
        (await post(`${TRANSFER}/signed-in`, { ...signed, account: other.address })).status,
      ).toBe(403);
      // None of those spent the nonce: the untouched answer still signs in.
      expect((await post(`${TRANSFER}/signed-in`, signed)).status).toBe(200);
    });

    it('the action without a session, with a changed one, another account’s or blink’s: 4xx', async () => {
      const values = { recipient: other.address, amount: '0.01' };
      const signedIn = async (path: string): Promise<string> => {
        const { body } = await post(
          `${path}/signed-in`,
          await messageFor(user.address, user, path),
        );
        const action = body as unknown as ActionGetResponse;
        const [field] = action.links!.actions[0].parameters! as { options: { value: string }[] }[];
        return field.options[0].value;
      };
      const session = await signedIn(TRANSFER);
      const run = (account: Address, blinkSession?: string) =>
        post(TRANSFER, { account, data: { ...values, ...(blinkSession && { blinkSession }) } });
      expect(await run(user.address)).toEqual({
        status: 401,
        body: { message: expect.stringMatching(/needs you signed in/) },
      });
      expect(await run(user.address, `${session.slice(0, -4)}AAAA`)).toEqual({
        status: 401,
        body: { message: expect.stringMatching(/session is not valid/) },
      });
      expect((await run(getAddress(other.address), session)).status).toBe(403);
      expect((await run(user.address, await signedIn('/api/blinks/my-transactions'))).status).toBe(
        401,
      );
      const ran = await run(user.address, session);
      expect([ran.status, (ran.body as { type?: string }).type]).toEqual([200, 'transaction']);
    });
  });
});
