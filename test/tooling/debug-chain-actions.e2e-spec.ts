import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { getAddress, type Hex, parseEther } from 'viem';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { createTestApp, postJson } from '../support/app.factory';
import { describeWithBrowser, launchChromium } from '../support/debug-page.helper';

const SHOTS = join(__dirname, '..', '..', 'test-results', 'debug-page');
/** A fresh address: its balance is what the tip sends it, nothing else. */
const RECIPIENT = getAddress('0x00000000000000000000000000000000000beef1');

/**
 * A wallet injected in the page that forwards every request to the local chain, whose accounts
 * the node unlocks: eth_sendTransaction lands for real. Runs in the page (globalThis is window).
 */
function installChainWallet(): void {
  const forward = (
    globalThis as unknown as { chainRpc: (m: string, p: unknown) => Promise<unknown> }
  ).chainRpc;
  Object.assign(globalThis, {
    ethereum: {
      request: ({ method, params }: { method: string; params?: unknown[] }): Promise<unknown> =>
        method === 'eth_requestAccounts'
          ? forward('eth_accounts', [])
          : method === 'wallet_switchEthereumChain'
            ? Promise.resolve(null)
            : forward(method, params ?? []),
    },
  });
}

describe('Debugger page: chain-call builder', () => {
  it('refuses an unknown chain action and a missing wallet address', async () => {
    const app = await createTestApp({ env: { DEBUG_UI: 'true', TIP_RECIPIENT: RECIPIENT } });
    try {
      const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
      const missing = await postJson(app, '/debug/chain-call', {
        miniApp: 'wallet',
        index: 1,
        from,
      });
      expect(missing.status).toBe(404);
      const anonymous = await postJson(app, '/debug/chain-call', { miniApp: 'wallet', index: 0 });
      expect(anonymous.status).toBe(400);
      const bad = await postJson(app, '/debug/chain-call', {
        miniApp: 'wallet',
        index: 0,
        from,
        inputs: { amount: '1e-7' },
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('amount');
      const good = await postJson(app, '/debug/chain-call', {
        miniApp: 'wallet',
        index: 0,
        from,
        inputs: { amount: '0.1', to: '0x000000000000000000000000000000000000dEaD' },
      });
      // The recipient is fixed by the mini-app: the input cannot replace it.
      expect(good.body).toMatchObject({
        chainId: 43113,
        walletRequest: { to: RECIPIENT, value: `0x${parseEther('0.1').toString(16)}` },
      });
    } finally {
      await app.close();
    }
  });
});

describeWithBrowser()('Debugger page in Chromium: the shipped tip, sent on a local chain', () => {
  jest.setTimeout(60_000);
  let chain: LocalChain;
  let app: NestFastifyApplication;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    chain = await startLocalChain({ chainId: 43113 });
    app = await createTestApp({ env: { DEBUG_UI: 'true', TIP_RECIPIENT: RECIPIENT } });
    await app.listen(0, '127.0.0.1');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.setDefaultTimeout(15_000);
    await page.exposeFunction('chainRpc', async (method: string, params: unknown[]) => {
      const response = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
      if (answer.error) throw new Error(answer.error.message);
      return answer.result;
    });
    await page.addInitScript(installChainWallet);
    await page.goto(`${await app.getUrl()}/debug`);
    await page.locator('body[data-ready="true"]').waitFor();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await chain?.stop();
  });

  it('renders the tip with its fixed recipient and amount choices, the rules passing', async () => {
    const tip = page.locator('article[data-kind="transfer"]');
    expect(await tip.locator('h3').textContent()).toContain('Tip the project');
    const form = page.locator('form[data-chain-action="wallet-0"]');
    expect(await form.locator('[data-param="to"] input').inputValue()).toBe(RECIPIENT);
    expect(await form.locator('[data-param="amount"] input[type=radio]').count()).toBe(3);
    expect(await page.locator('[data-checks="wallet"]').textContent()).toContain('passes');
  });

  it('sends the chosen tip through the injected wallet: the recipient receives it', async () => {
    const before = await chain.publicClient.getBalance({ address: RECIPIENT });
    const form = page.locator('form[data-chain-action="wallet-0"]');
    await form.locator('[data-param="amount"] input[value="0.05"]').check();
    await form.locator('button.send-wallet').click();
    const sent = page.locator('[data-chain-answer="wallet-0"] .sent');
    const text = (await sent.textContent()) ?? '';
    const hash = text.replace('Sent: ', '') as Hex;
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.to).toBe(RECIPIENT.toLowerCase());
    expect(receipt.from).toBe(chain.accounts[0].address.toLowerCase());
    const after = await chain.publicClient.getBalance({ address: RECIPIENT });
    expect(after - before).toBe(parseEther('0.05'));
    await page
      .locator('article[data-kind="transfer"]')
      .screenshot({ path: join(SHOTS, 'tip.png') });
  });
});
