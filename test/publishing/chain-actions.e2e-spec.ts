import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { checkPlatformMetadata } from '../../src/publishing/platform-metadata';
import type { MiniAppMetadata } from '../../src/contract/action.types';
import { createTestApp } from '../support/app.factory';
import {
  APPROVE,
  BAD_CHAIN_ACTIONS,
  badMiniApp,
  CHAIN_APP,
  CHOSEN_TRANSFER,
  DEPOSIT,
  oneDynamicIn,
  SPENDER,
  VAULT,
  VAULT_ABI,
} from '../fixtures/chain-actions.fixture';

const document = async (app: NestFastifyApplication, id: string): Promise<MiniAppMetadata> =>
  (await app.inject({ method: 'GET', url: `/api/mini-apps/${id}` })).json<MiniAppMetadata>();

describe('Chain actions (blockchain, transfer): checked at boot', () => {
  it.each(BAD_CHAIN_ACTIONS.map((bad) => [bad.what, bad] as const))(
    'refuses to boot with %s, naming the mini-app, the action and the rule',
    async (_, { action, message }) => {
      const { app, module } = badMiniApp(action);
      const boot = createTestApp({ actions: [module], miniApps: [app] });
      await expect(boot).rejects.toThrow(message);
      const name = `mini-app "bad" action "${action.label}" (${action.type})`;
      await expect(boot).rejects.toThrow(name);
    },
  );

  it('counts every kind against the platform’s 4: two dynamic and three chain actions refuse', async () => {
    const boot = createTestApp({
      actions: [oneDynamicIn(CHAIN_APP, 'one'), oneDynamicIn(CHAIN_APP, 'two')],
      miniApps: [CHAIN_APP],
    });
    await expect(boot).rejects.toThrow(
      'mini-app "vault": has 5 actions (/api/one, /api/two, action "Approve the vault" (blockchain), action "Deposit 0.5" (blockchain), action "Pay a friend" (transfer)), the platform allows at most 4',
    );
  });
});

describe('Chain actions: published in their mini-app’s document', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp({ actions: [oneDynamicIn(CHAIN_APP)], miniApps: [CHAIN_APP] });
  });
  afterAll(() => app?.close());

  it('after the dynamic actions, in the platform’s shape, passing its rules', async () => {
    const doc = await document(app, 'vault');
    expect(doc.actions.map((action) => action.type)).toEqual([
      'dynamic',
      'blockchain',
      'blockchain',
      'transfer',
    ]);
    // JSON as the platform reads it: every field the SDK's interfaces name, nothing else.
    expect(doc.actions[1]).toEqual({
      type: 'blockchain',
      label: 'Approve the vault',
      description: 'Let the vault spend up to the amount chosen',
      chains: { source: 43113 },
      address: VAULT,
      abi: JSON.parse(JSON.stringify(VAULT_ABI)),
      functionName: 'approve',
      params: [
        { name: 'spender', label: 'Spender', type: 'address', fixed: true, value: SPENDER },
        {
          name: 'amount',
          label: 'Allowance',
          type: 'select',
          options: [
            { label: 'One token', value: '1000000000000000000' },
            { label: 'Ten tokens', value: '10000000000000000000' },
          ],
          value: '1000000000000000000',
        },
      ],
    });
    expect(doc.actions[2]).toEqual({ ...DEPOSIT, abi: JSON.parse(JSON.stringify(VAULT_ABI)) });
    expect(doc.actions[3]).toEqual(CHOSEN_TRANSFER);
    expect(APPROVE.type).toBe('blockchain');
    expect(checkPlatformMetadata(doc)).toEqual([]);
  });

  it('the document rules refuse what the boot refuses', async () => {
    const doc = await document(app, 'vault');
    const broken = { ...doc, actions: [...doc.actions] };
    broken.actions[3] = { ...CHOSEN_TRANSFER, recipient: { type: 'radio' } } as never;
    expect(checkPlatformMetadata(broken)).toEqual([
      'actions[3].recipient.type "radio" is not "select" or "input"',
    ]);
    // The SDK's names before 2.20.11: its validator refuses the recipient, drops the amount's radio.
    broken.actions[3] = {
      ...CHOSEN_TRANSFER,
      recipient: { inputType: 'select', options: CHOSEN_TRANSFER.recipient?.options },
      amountConfig: { inputType: 'radio', options: [{ label: 'One', value: 1 }] },
    } as never;
    expect(checkPlatformMetadata(broken)).toEqual([
      `actions[3].recipient.inputType is the SDK's name before 2.20.11: write type ("select")`,
      'actions[3].recipient.type undefined is not "select" or "input"',
      `actions[3].amountConfig.inputType is the SDK's name before 2.20.11: write type ("radio")`,
    ]);
  });

  it('the index lists the dynamic paths only, and the OpenAPI document still builds', async () => {
    const index = (await app.inject({ method: 'GET', url: '/api/metadata' })).json<{
      miniApps: { actionPaths: string[] }[];
    }>();
    expect(index.miniApps[0].actionPaths).toEqual(['/api/vault-info']);
    const openApi = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(openApi.statusCode).toBe(200);
    expect(Object.keys(openApi.json<{ paths: object }>().paths)).toContain('/api/vault-info');
  });
});

describe('The shipped tip: a transfer in the wallet mini-app, from TIP_RECIPIENT', () => {
  const RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

  it('is published last in the wallet document, to the configured recipient', async () => {
    const app = await createTestApp({ env: { TIP_RECIPIENT: RECIPIENT } });
    try {
      const wallet = await document(app, 'wallet');
      expect(wallet.actions).toHaveLength(4);
      expect(wallet.actions[3]).toEqual({
        type: 'transfer',
        label: 'Tip the project',
        description: 'Send a small tip in AVAX to the people who run this service',
        chains: { source: 43113 },
        to: RECIPIENT,
        amountConfig: {
          type: 'radio',
          label: 'Tip (AVAX)',
          options: [
            { label: '0.01 AVAX', value: 0.01 },
            { label: '0.05 AVAX', value: 0.05 },
            { label: '0.1 AVAX', value: 0.1 },
          ],
          defaultValue: 0.01,
          required: true,
        },
      });
      expect(checkPlatformMetadata(wallet)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('is not published when TIP_RECIPIENT is unset', async () => {
    const app = await createTestApp();
    try {
      const wallet = await document(app, 'wallet');
      expect(wallet.actions.map((action) => action.type)).toEqual([
        'dynamic',
        'dynamic',
        'dynamic',
      ]);
    } finally {
      await app.close();
    }
  });

  it('stops the boot when TIP_RECIPIENT is not checksummed, giving the checksummed form', async () => {
    await expect(
      createTestApp({ env: { TIP_RECIPIENT: RECIPIENT.toLowerCase() } }),
    ).rejects.toThrow(
      `TIP_RECIPIENT="${RECIPIENT.toLowerCase()}": must be EIP-55 checksummed: ${RECIPIENT}`,
    );
    await expect(createTestApp({ env: { TIP_RECIPIENT: 'me' } })).rejects.toThrow(
      /TIP_RECIPIENT="me": must be an EVM address/,
    );
  });
});
