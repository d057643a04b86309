import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { erc6492SignatureValidatorByteCode, type HDAccount, type Hex, toHex } from 'viem';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import {
  counterfactualWallet,
  deploySmartWallet,
  gasBurningSigner,
} from '../../src/testing/evm/smart-wallets';
import { type TestChain, startTestChain } from '../../src/testing/evm/test-chain';
import { createTestApp, type InjectedJson } from '../support/app.factory';
import { type RpcCall, RpcRecorder } from '../support/rpc.recorder';
import {
  nonceOf,
  postSignIn,
  postWithToken,
  SIWE_BASE,
  type SignInAnswer,
  siweMessage,
  signInAs,
} from '../support/siwe.helper';

const GAS_CAP = 400_000;
/** The contract-wallet checks' own slots; the node's other calls get as many, and no queue. */
const CHECKS_AT_ONCE = 4;

/** A contract-wallet check: viem's ERC-6492 validator, deployed in an eth_call of its own. */
const isWalletCheck = (call: RpcCall): boolean => {
  const tx = call.params?.[0] as { to?: string; data?: string } | undefined;
  return (
    call.method === 'eth_call' &&
    tx?.to === undefined &&
    (tx?.data ?? '').startsWith(erc6492SignatureValidatorByteCode.slice(0, 66))
  );
};
const gasOf = (call: RpcCall): bigint => BigInt((call.params?.[0] as { gas: Hex }).gas);

/**
 * What sign-in costs the chain's node, counted at a proxy in front of a local chain: nothing for
 * a made-up nonce nor for an EOA, one capped eth_call for a contract wallet, and contract-wallet
 * checks that hold their own slots, never the ones transaction answers need.
 */
describe('Sign-in: what it costs the node', () => {
  let testChain: TestChain;
  let recorder: RpcRecorder;
  let app: NestFastifyApplication;
  let owner: HDAccount;
  let stranger: HDAccount;
  let chainId: number;
  let burn: (message: string) => Promise<Hex>;

  beforeAll(async () => {
    testChain = await startTestChain();
    chainId = testChain.chain.chainId;
    [owner, stranger] = testChain.users;
    burn = await gasBurningSigner(testChain.chain, owner);
    recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
    app = await createTestApp({
      env: {
        ...testChain.env,
        [`RPC_URL_${chainId}`]: recorder.url,
        PUBLIC_BASE_URL: SIWE_BASE,
        // The outcome follower polls the same node: kept out of the counts.
        OUTCOME_POLL_MS: '600000',
        EXTERNAL_MAX_CONCURRENCY: String(CHECKS_AT_ONCE),
        EXTERNAL_MAX_QUEUE: '0',
        // Checks held at the proxy (the last test) must outlive a loaded machine's send-tokens.
        EXTERNAL_TIMEOUT_MS: '60000',
        AUTH_WALLET_CHECK_CONCURRENCY: String(CHECKS_AT_ONCE),
        AUTH_WALLET_CHECK_GAS: String(GAS_CAP),
      },
      actions: [SendTokenModule, MyTransactionsModule],
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await recorder?.close();
    await testChain?.stop();
  });

  beforeEach(() => recorder.reset());

  const sign = (account: HDAccount) => (message: string) => account.signMessage({ message });
  const sendToken = (): Promise<InjectedJson> =>
    postWithToken(
      app,
      `/api/send-token?token=USDC&amount=1&recipient=${stranger.address}`,
      undefined,
      {},
      {
        'x-user-address': owner.address,
      },
    );

  it('a made-up nonce is refused with no RPC call, whatever the signature', async () => {
    const message = siweMessage({ address: owner.address, chainId, nonce: 'abcdefgh12345678' });
    const signatures = [
      toHex(randomBytes(65)),
      await owner.signMessage({ message }),
      await burn(message),
    ];
    for (const signature of signatures) {
      const answer = await postSignIn(app, message, signature);
      expect([answer.status, answer.body.error]).toEqual([401, expect.stringMatching(/nonce/)]);
    }
    expect(recorder.calls).toEqual([]);
  });

  it('an EOA signs in with no RPC call; another key’s signature costs one capped eth_call', async () => {
    const token = await signInAs(app, owner.address, sign(owner), chainId);
    expect(recorder.calls).toEqual([]);
    expect((await postWithToken(app, '/api/my-transactions', token)).status).toBe(200);
    recorder.reset();
    const message = siweMessage({ address: owner.address, chainId, nonce: await nonceOf(app) });
    const answer = await postSignIn(app, message, await stranger.signMessage({ message }));
    expect([answer.status, answer.body.error]).toEqual([401, expect.stringMatching(/signature/)]);
    expect(recorder.calls.map((call) => [isWalletCheck(call), gasOf(call)])).toEqual([
      [true, BigInt(GAS_CAP)],
    ]);
  });

  it('an ERC-1271 and an ERC-6492 wallet sign in, each with one capped eth_call', async () => {
    const deployed = await deploySmartWallet(testChain.chain, owner);
    const undeployed = await counterfactualWallet(testChain.chain, owner, `0x${'00'.repeat(31)}07`);
    recorder.reset();
    await signInAs(app, deployed, sign(owner), chainId);
    await signInAs(app, undeployed.address, undeployed.signMessage, chainId);
    expect(recorder.calls.map((call) => [isWalletCheck(call), gasOf(call)])).toEqual([
      [true, BigInt(GAS_CAP)],
      [true, BigInt(GAS_CAP)],
    ]);
  });

  /** Eight gas-burning sign-ins posted at once, for an address no one deployed. */
  async function burningSignIns(): Promise<Promise<InjectedJson<SignInAnswer>>[]> {
    const messages: string[] = [];
    for (let i = 0; i < 2 * CHECKS_AT_ONCE; i += 1) {
      messages.push(siweMessage({ address: stranger.address, chainId, nonce: await nonceOf(app) }));
    }
    const signatures = await Promise.all(messages.map(burn));
    return messages.map((message, i) => postSignIn(app, message, signatures[i]));
  }

  it('eight gas-burning ERC-6492 sign-ins end out of gas at the cap, refused (401), while send-token answers 200', async () => {
    const signIns = await burningSignIns();
    const sends = [sendToken(), sendToken(), sendToken(), sendToken()];
    const [refusals, answers] = await Promise.all([Promise.all(signIns), Promise.all(sends)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(refusals.map((r) => [r.status, r.body.data])).toEqual(
      refusals.map(() => [401, { code: 'SIWE_REFUSED' }]),
    );
    const checks = recorder.calls.filter(isWalletCheck);
    expect(checks.map(gasOf)).toEqual(checks.map(() => BigInt(GAS_CAP)));
    expect(checks).toHaveLength(2 * CHECKS_AT_ONCE);
  });

  it('contract-wallet checks held at the node take none of the slots send-token needs', async () => {
    // Every check is held at the proxy until send-token has answered: four in their slots, four
    // queued behind them. Had they shared the node's four slots (no queue), send-token would 503.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let allHeld!: () => void;
    const held = new Promise<void>((resolve) => (allHeld = resolve));
    let holding = 0;
    recorder.holding = (calls) => {
      if (!calls.some(isWalletCheck)) return undefined;
      if (++holding === CHECKS_AT_ONCE) allHeld();
      return gate;
    };
    try {
      const signIns = await burningSignIns();
      await held;
      const sent = [await sendToken(), await sendToken()];
      expect(sent.map((answer) => answer.status)).toEqual([200, 200]);
      expect(holding).toBe(CHECKS_AT_ONCE);
      release();
      const refusals = await Promise.all(signIns);
      expect(refusals.map((r) => [r.status, r.body.data])).toEqual(
        refusals.map(() => [401, { code: 'SIWE_REFUSED' }]),
      );
    } finally {
      recorder.holding = undefined;
      release();
    }
  });
});
