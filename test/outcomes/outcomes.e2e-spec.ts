import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Address, type HDAccount, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  executeDynamic,
  type FetchLike,
  intentOf,
  reportTransaction,
  transactionOutcome,
} from '../../src/client';
import { ActionRegistry } from '../../src/kit/action.registry';
import { OutcomeWatcher } from '../../src/outcomes/outcome-watcher';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import { createTestApp } from '../support/app.factory';
import { testLogs } from '../support/log-capture.helper';
import {
  type DexFixture,
  deployDexFixture,
  fixtureChainEntry,
  fundUser,
  writeChainFile,
} from '../../src/testing/evm/dex-fixture';
import { deployFixtureToken } from '../../src/testing/evm/fixture-tokens';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { signAndSend } from '../../src/testing/evm/wallet';
import {
  heard,
  heardCount,
  readIntent,
  reportHash,
  sendAnyway,
  RecordingSinkModule,
  SendTokenWithHookModule,
  sendTokenIntent,
  sunkOutcomes,
} from '../support/outcomes.helper';

const FUJI = 43113;
const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Transaction outcomes on a local chain: the answer's intent, the service's own reading of the
 * chain (with or without a reported hash), and the team's hook told once.
 */
describe('Transaction outcomes', () => {
  let chain: LocalChain;
  let fixture: DexFixture;
  let user: HDAccount;
  let other: HDAccount;
  let app: NestFastifyApplication;
  /** INTENT_TTL_S=1: what nobody reports expires at once. */
  let shortApp: NestFastifyApplication;

  beforeAll(async () => {
    chain = await startLocalChain({ chainId: FUJI });
    fixture = await deployDexFixture(chain);
    [user, other] = [chain.accounts[1], chain.accounts[2]];
    await fundUser(chain, fixture, user);
    await fundUser(chain, fixture, other);
    const frozen = await deployFixtureToken(chain, chain.wallet(fixture.deployer), 'FrozenToken', {
      decimals: 6,
      supply: parseUnits('1000000', 6),
      name: 'Frozen',
      symbol: 'USDT',
    });
    const entry = fixtureChainEntry(fixture, {
      name: 'Local Fuji',
      rpcUrl: chain.rpcUrl,
      native: 'AVAX',
      wrapped: 'WAVAX',
    });
    // USDT is the token that reverts every transfer; with TX_SIMULATE=off it is still answered.
    const file = writeChainFile({
      [FUJI]: {
        ...entry,
        tokens: { ...(entry.tokens as object), USDT: { address: frozen, decimals: 6 } },
        pools: [],
      },
    });
    const env = { CHAIN_CONFIG_FILE: file, TX_SIMULATE: 'off', OUTCOME_POLL_MS: '50' };
    const actions = [SendTokenWithHookModule, RecordingSinkModule];
    [app, shortApp] = await Promise.all([
      createTestApp({ env, actions }),
      createTestApp({ env: { ...env, INTENT_TTL_S: '1' }, actions }),
    ]);
  }, 60_000);

  /** dynamic_action_intent_transitions_total of send-token, by status. */
  async function transitions(): Promise<Record<string, number>> {
    const metric = await app
      .get(ActionMetrics)
      .registry.getSingleMetric('dynamic_action_intent_transitions_total')!
      .get();
    const counts: Record<string, number> = { submitted: 0, confirmed: 0 };
    for (const { labels, value } of metric.values) {
      if (labels.action === '/api/send-token') counts[String(labels.status)] = value;
    }
    return counts;
  }

  afterAll(async () => {
    await Promise.all([app, shortApp].map((a) => a?.close()));
    await chain?.stop();
  });

  it('answers the exact ExecutionResponse, names its intent in X-Action-Intent and the access line', async () => {
    const answer = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '0.5' },
      user.address,
    );
    expect(answer.intent).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const contract = ['serializedTransaction', 'chainId', 'abi', 'params'];
    expect(Object.keys(answer.body).filter((key) => !contract.includes(key))).toEqual([]);
    expect(answer.body).toMatchObject({ chainId: FUJI, serializedTransaction: expect.any(String) });
    const line = testLogs
      .lines()
      .find((l) => l.msg === 'request completed' && l.intent === answer.intent);
    expect(line).toMatchObject({ route: '/api/send-token', status: 200 });
    const read = await readIntent(app, answer.intent);
    expect(read).toEqual({
      status: 200,
      body: {
        success: true,
        data: {
          intent: answer.intent,
          action: '/api/send-token',
          chainId: FUJI,
          status: 'answered',
          updatedAt: expect.any(Number),
        },
        message: 'The transaction has not been seen on the chain yet',
        statusCode: 200,
        metadata: {
          timestamp: expect.any(Number),
          requestId: expect.any(String),
          executionTime: expect.any(Number),
        },
      },
    });
  });

  it('answered → signed → reported: confirmed with its block, the hook told once', async () => {
    const answer = await sendTokenIntent(
      app,
      { token: 'USDC', recipient: recipient(), amount: '1.25' },
      user.address,
    );
    const { receipt } = await signAndSend(chain, user, answer.body.serializedTransaction as string);
    const reported = await reportHash(app, answer.intent, receipt.transactionHash);
    expect(reported.status).toBe(200);
    expect(['submitted', 'confirmed']).toContain(reported.body.data?.status);
    const outcome = await heard(answer.intent, 'confirmed');
    expect(outcome.intent).toMatchObject({
      user: user.address,
      hash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
    });
    expect((await readIntent(app, answer.intent)).body.data).toEqual({
      intent: answer.intent,
      action: '/api/send-token',
      chainId: FUJI,
      status: 'confirmed',
      hash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
      updatedAt: expect.any(Number),
    });

    // The same hash again: the same intent, nothing moved, no hook again.
    expect((await reportHash(app, answer.intent, receipt.transactionHash)).body.data).toMatchObject(
      {
        status: 'confirmed',
      },
    );
    await app.get(OutcomeWatcher).tick();
    expect(heardCount(answer.intent)).toBe(1);
    // The OutcomeSink (webhooks) was handed the same outcome, once.
    expect(sunkOutcomes.filter((o) => o.intent.id === answer.intent)).toEqual([
      {
        status: 'confirmed',
        deliveryId: `${answer.intent}.confirmed`,
        intent: outcome.intent,
        occurredAt: outcome.occurredAt,
      },
    ]);

    // Another hash for a settled intent: refused.
    const second = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '0.1' },
      user.address,
    );
    const { receipt: secondReceipt } = await signAndSend(
      chain,
      user,
      second.body.serializedTransaction as string,
    );
    const refused = await reportHash(app, answer.intent, secondReceipt.transactionHash);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      statusCode: 409,
      data: { code: 'INTENT_SETTLED' },
    });
  });

  it('10,000 reports of one hash, racing from before it settles: one transition each, one hook call', async () => {
    const answer = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '0.2' },
      user.address,
    );
    const { receipt } = await signAndSend(chain, user, answer.body.serializedTransaction as string);
    const before = await transitions();
    const statuses = new Set<string>();
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 1_000 }, () =>
          reportHash(app, answer.intent, receipt.transactionHash),
        ),
      );
      for (const a of answers) statuses.add(`${a.status} ${a.body.data?.hash}`);
    }
    expect([...statuses]).toEqual([`200 ${receipt.transactionHash}`]);
    await heard(answer.intent, 'confirmed');
    await app.get(OutcomeWatcher).tick();
    expect(heardCount(answer.intent)).toBe(1);
    const moves = testLogs
      .lines()
      .filter((l) => typeof l.msg === 'string' && l.msg.startsWith(`Intent ${answer.intent} `));
    expect(moves.map((l) => (l.msg as string).split(' (')[0])).toEqual([
      `Intent ${answer.intent} answered → submitted`,
      `Intent ${answer.intent} submitted → confirmed`,
    ]);
    // Other intents of the suite settle on their own meanwhile: the metric moved at least by these.
    const after = await transitions();
    expect(after.submitted - before.submitted).toBeGreaterThanOrEqual(1);
    expect(after.confirmed - before.confirmed).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it("another transaction of the user's: 422 HASH_MISMATCH, the intent stays open, its own transaction confirms it", async () => {
    const answered = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '2' },
      user.address,
    );
    const sent = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '3' },
      user.address,
    );
    const { receipt } = await signAndSend(chain, user, sent.body.serializedTransaction as string);
    const refused = await reportHash(app, answered.intent, receipt.transactionHash);
    expect(refused).toMatchObject({
      status: 422,
      body: { success: false, data: { code: 'HASH_MISMATCH' } },
    });
    expect((await readIntent(app, answered.intent)).body.data?.status).toBe('answered');
    // Never reported: the follower sees the answered transaction and settles it.
    const own = await signAndSend(chain, user, answered.body.serializedTransaction as string);
    const outcome = await heard(answered.intent, 'confirmed');
    expect(outcome.intent.hash).toBe(own.receipt.transactionHash);
  });

  it("an intent answered to another user's address, sent by this user: 422, the sender differs", async () => {
    const answered = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '1' },
      other.address,
    );
    const { receipt } = await signAndSend(
      chain,
      user,
      answered.body.serializedTransaction as string,
    );
    const reported = await reportHash(app, answered.intent, receipt.transactionHash);
    expect(reported).toMatchObject({ status: 422, body: { data: { code: 'HASH_MISMATCH' } } });
    expect((await readIntent(app, answered.intent)).body.data?.status).toBe('answered');
  });

  it('a transaction that reverts (the frozen token): reverted, with its block', async () => {
    const answer = await sendTokenIntent(
      app,
      { token: 'USDT', recipient: recipient(), amount: '1' },
      fixture.deployer.address,
    );
    const hash = await sendAnyway(
      chain,
      fixture.deployer,
      answer.body.serializedTransaction as string,
    );
    await reportHash(app, answer.intent, hash);
    const outcome = await heard(answer.intent, 'reverted');
    expect(outcome.intent.blockNumber).toMatch(/^\d+$/);
  });

  it('nothing reported: expired after INTENT_TTL_S, the hook told', async () => {
    const answer = await sendTokenIntent(
      shortApp,
      { token: 'AVAX', recipient: recipient(), amount: '1' },
      user.address,
    );
    await heard(answer.intent, 'expired');
    expect((await readIntent(shortApp, answer.intent)).body.data?.status).toBe('expired');
    // A hash reported too late is refused: the intent is final.
    const late = await reportHash(shortApp, answer.intent, `0x${'12'.repeat(32)}`);
    expect(late).toMatchObject({ status: 409, body: { data: { code: 'INTENT_SETTLED' } } });
    expect(heardCount(answer.intent)).toBe(1);
  });

  it('a hash the chain does not know changes nothing, and the answer says so', async () => {
    const answer = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '1' },
      user.address,
    );
    const nowhere = `0x${'ab'.repeat(32)}`;
    const reported = await reportHash(app, answer.intent, nowhere);
    expect(reported.status).toBe(200);
    expect(reported.body.data).toMatchObject({ status: 'answered' });
    expect(reported.body.data?.hash).toBeUndefined();
    expect(reported.body.message).toMatch(/does not know this transaction yet/);
  });

  it('the client SDK: executeDynamic exposes the intent, reportTransaction reports the hash', async () => {
    // The SDK's fetch, served by the app in-process.
    const fetch: FetchLike = async (url, init) => {
      const response = await app.inject({
        method: init.method,
        url: url.replace('http://service.test', ''),
        headers: init.headers,
        payload: init.body,
      });
      return {
        status: response.statusCode,
        text: () => Promise.resolve(response.body),
        headers: {
          get: (name: string) => (response.headers[name.toLowerCase()] as string) ?? null,
        },
      };
    };
    const options = { baseUrl: 'http://service.test', fetch, userAddress: user.address };
    const action = app
      .get(ActionRegistry)
      .actions()
      .find((a) => a.path === '/api/send-token')!;
    const answer = await executeDynamic(
      action,
      { token: 'AVAX', recipient: recipient(), amount: '0.3' },
      options,
    );
    const intent = intentOf(answer);
    expect(intent).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { receipt } = await signAndSend(
      chain,
      user,
      (answer as { serializedTransaction: string }).serializedTransaction,
    );
    const reported = await reportTransaction(intent!, receipt.transactionHash, options);
    expect(reported).toMatchObject({
      success: true,
      data: { intent, hash: receipt.transactionHash },
    });
    await heard(intent!, 'confirmed');
    expect((await transactionOutcome(intent!, options)).data).toMatchObject({
      status: 'confirmed',
    });
  });

  describe('bad input, answered in the envelope', () => {
    const unknown = 'A'.repeat(32);
    it.each([
      ['a malformed intent', 'not-an-intent', '0x' + '1'.repeat(64), 400, 'INVALID_INTENT'],
      ['an intent too long', 'A'.repeat(65), '0x' + '1'.repeat(64), 400, 'INVALID_INTENT'],
      ['an unknown intent', unknown, '0x' + '1'.repeat(64), 404, 'INTENT_NOT_FOUND'],
    ])('%s', async (_what, intent, hash, status, code) => {
      const answer = await reportHash(app, intent, hash);
      expect(answer).toEqual({
        status,
        body: expect.objectContaining({ success: false, statusCode: status, data: { code } }),
      });
      expect((await readIntent(app, intent)).status).toBe(status);
    });

    it.each([
      ['short', '0x1234'],
      ['not hex', '0x' + 'z'.repeat(64)],
      ['a number', 42],
      ['missing', undefined],
      ['too long', '0x' + '1'.repeat(65)],
    ])('a hash %s: 400', async (_what, hash) => {
      const answer = await sendTokenIntent(
        app,
        { token: 'AVAX', recipient: recipient(), amount: '1' },
        user.address,
      );
      const refused = await reportHash(app, answer.intent, hash);
      expect(refused).toMatchObject({
        status: 400,
        body: { success: false, data: { code: 'INVALID_HASH' } },
      });
      expect((await readIntent(app, answer.intent)).body.data?.status).toBe('answered');
    });

    it('the hash as a query parameter', async () => {
      const answer = await sendTokenIntent(
        app,
        { token: 'AVAX', recipient: recipient(), amount: '1' },
        user.address,
      );
      const hash = `0x${'cd'.repeat(32)}`;
      const response = await app.inject({
        method: 'POST',
        url: `/api/transactions/${answer.intent}?hash=${hash}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ data: { status: 'answered' } });
    });
  });
});
