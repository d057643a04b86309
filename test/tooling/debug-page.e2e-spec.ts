import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { ACTION_MODULES } from '../../src/actions';
import { createTestApp, postJson } from '../support/app.factory';
import { closedRpcUrl } from '../support/platform';
import {
  describeWithBrowser,
  FAKE_WALLET,
  installFakeWallet,
  launchChromium,
  TOKEN,
  TokenTransferModule,
} from '../support/debug-page.helper';
import { EveryTypeModule } from '../fixtures/every-type.fixture';
import { UploadFixtureModule } from '../fixtures/upload.fixture';

const SHOTS = join(__dirname, '..', '..', 'test-results', 'debug-page');
const actions = [...ACTION_MODULES, TokenTransferModule, EveryTypeModule, UploadFixtureModule];

describe('Debugger page switch and policy', () => {
  it('is not served when DEBUG_UI is unset outside development', async () => {
    const app = await createTestApp();
    try {
      for (const url of ['/debug', '/debug/debug.js', '/debug/checks', '/debug/context']) {
        expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
      expect((await postJson(app, '/debug/decode', { serializedTransaction: '0x' })).status).toBe(
        404,
      );
    } finally {
      await app.close();
    }
  });

  it('serves the page under a strict Content-Security-Policy, with no resource from elsewhere', async () => {
    const app = await createTestApp({ env: { DEBUG_UI: 'true' } });
    try {
      for (const url of ['/debug', '/debug/debug.js', '/debug/debug.css', '/debug/checks']) {
        const answer = await app.inject({ method: 'GET', url });
        expect(answer.statusCode).toBe(200);
        const csp = String(answer.headers['content-security-policy']);
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
      }
      const page = await app.inject({ method: 'GET', url: '/debug' });
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      // Only same-origin paths in src and href, and no inline script or style to need 'unsafe-inline'.
      const links = [...page.body.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link).toMatch(/^\/debug\//);
      expect(page.body).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/i);
    } finally {
      await app.close();
    }
  });

  it('rate-limits decode requests per client IP, like the actions (429 with Retry-After)', async () => {
    const app = await createTestApp({
      env: { DEBUG_UI: 'true', RATE_LIMIT_IP_MAX: '2', RATE_LIMIT_IP_WINDOW_SECONDS: '60' },
    });
    try {
      const decode = (): ReturnType<typeof app.inject> =>
        app.inject({
          method: 'POST',
          url: '/debug/decode',
          headers: { 'content-type': 'application/json' },
          payload: '{"serializedTransaction":"hello"}',
        });
      expect([(await decode()).statusCode, (await decode()).statusCode]).toEqual([400, 400]);
      const refused = await decode();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ success: false, error: 'Too many requests' });
    } finally {
      await app.close();
    }
  });

  it('refuses a decode request that holds no transaction', async () => {
    const app = await createTestApp({ env: { DEBUG_UI: 'true' } });
    try {
      expect((await postJson(app, '/debug/decode', {})).status).toBe(400);
      const bad = await postJson(app, '/debug/decode', { serializedTransaction: 'hello' });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('serializedTransaction');
    } finally {
      await app.close();
    }
  });
});

describeWithBrowser()('Debugger page in Chromium', () => {
  jest.setTimeout(30_000);
  let app: NestFastifyApplication;
  let browser: Browser;
  let page: Page;
  let base: string;
  const elsewhere: string[] = [];
  const consoleErrors: string[] = [];

  const form = (path: string): ReturnType<Page['locator']> =>
    page.locator(`form[data-action="${path}"]`);
  const answer = (path: string): ReturnType<Page['locator']> =>
    page.locator(`[data-answer="${path}"]`);
  /** The value cell of a key/value table row, waited for. */
  const cell = async (table: ReturnType<Page['locator']>, key: string): Promise<string> => {
    const td = table.locator('tr', { has: page.locator(`th:text-is("${key}")`) }).locator('td');
    await td.waitFor();
    return (await td.textContent()) ?? '';
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The chain's node is a closed loopback port: the fake wallet's transaction is never mined,
    // and the page, which reports nothing, shows the intent as the service sees it: answered.
    app = await createTestApp({
      env: { DEBUG_UI: 'true', RPC_URL_43113: await closedRpcUrl() },
      actions,
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    // A missing element fails its test with the locator named, inside Jest's own deadline.
    page.setDefaultTimeout(10_000);
    await page.addInitScript(installFakeWallet, FAKE_WALLET);
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${base}/debug`);
    await page.locator('body[data-ready="true"]').waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders each mini-app, each parameter type as its widget, and the rules passing', async () => {
    const sections = page.locator('section[data-mini-app]');
    const index = (await (await fetch(`${base}/api/metadata`)).json()) as { miniApps: unknown[] };
    expect(await sections.count()).toBe(index.miniApps.length);
    const every = form('/api/every-type');
    const widget = (name: string): ReturnType<Page['locator']> =>
      every.locator(`[data-param="${name}"]`);
    expect(await widget('notes').locator('textarea').count()).toBe(1);
    expect(await widget('email').locator('input[type=email]').count()).toBe(1);
    expect(await widget('website').locator('input[type=url]').count()).toBe(1);
    expect(await widget('when').locator('input[type=datetime-local]').count()).toBe(1);
    expect(await widget('agree').locator('input[type=checkbox]').count()).toBe(1);
    expect(await widget('plan').locator('input[type=radio]').count()).toBe(2);
    expect(await widget('level').textContent()).toContain('max 200');
    expect(await widget('title').locator('.req').count()).toBe(1);
    expect(await widget('notes').locator('.req').count()).toBe(0);
    expect(await widget('network').locator('input').getAttribute('readonly')).not.toBeNull();
    expect(await widget('network').locator('input').inputValue()).toBe('fuji');
    const uploads = form('/api/upload');
    expect(await uploads.locator('input[type=file]').count()).toBe(3);
    expect(await form('/api/calculator').locator('select[name=operation] option').count()).toBe(5);
    const checks = page.locator('[data-checks]');
    expect(await checks.count()).toBe(index.miniApps.length);
    for (const box of await checks.all()) expect(await box.textContent()).toContain('passes');
    await page.screenshot({ path: join(SHOTS, 'overview.png'), fullPage: true });
  });

  it("links each action's blink JSON", async () => {
    const links = page.locator('article[data-path] a.blink');
    expect(await links.count()).toBe(await page.locator('article[data-path]').count());
    const link = page.locator('article[data-path="/api/calculator"] a.blink');
    expect(await link.getAttribute('href')).toBe('/api/blinks/calculator');
    await link.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'blink-link.png') });
    const blink = (await (await fetch(`${base}/api/blinks/calculator`)).json()) as {
      type: string;
    };
    expect(blink.type).toBe('action');
  });

  it('sends the calculator request as the proxy does and shows result 5', async () => {
    const calculator = form('/api/calculator');
    await calculator.locator('select[name=operation]').selectOption('add');
    await calculator.locator('input[name=a]').fill('2');
    await calculator.locator('input[name=b]').fill('3');
    const sent = page.waitForRequest((r) => r.url().includes('/api/calculator'));
    await calculator.locator('button[type=submit]').click();
    const request = await sent;
    expect(new URL(request.url()).search).toBe('?operation=add&a=2&b=3');
    const headers = request.headers();
    expect(headers['x-sherry-proxy']).toBe('true');
    expect(headers['x-chain-id']).toBe('43113');
    expect(request.postDataJSON()).toEqual({
      action: 'Calculate',
      params: { operation: 'add' },
      context: { sourceChain: 43113 },
    });
    const shown = answer('/api/calculator');
    expect(await cell(shown.locator('table[aria-label=data]'), 'result')).toBe('5');
    expect(await shown.locator('.status .code').textContent()).toBe('HTTP 200');
    expect(await shown.locator('.request-id').textContent()).toMatch(/^[0-9a-f-]{36}$/);
    await shown.screenshot({ path: join(SHOTS, 'calculator-result.png') });
  });

  it("fills a sample's values without replacing the wallet chosen at the top", async () => {
    const portfolio = form('/api/portfolio');
    const fill = portfolio.locator('button', { hasText: 'Fill sample 1' });
    const wallet = page.locator('#wallet');
    await wallet.fill(FAKE_WALLET.account);
    await portfolio.locator('select[name=timeframe]').selectOption('24h');
    await fill.click();
    expect(await portfolio.locator('select[name=timeframe]').inputValue()).toBe('7d');
    expect(await wallet.inputValue()).toBe(FAKE_WALLET.account);
    // An empty wallet field takes the sample's user.
    await wallet.fill('');
    await fill.click();
    expect(await wallet.inputValue()).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    await wallet.fill('');
  });

  it('shows the error text of a refused value', async () => {
    const calculator = form('/api/calculator');
    await calculator.locator('input[name=b]').fill('');
    await calculator.locator('button[type=submit]').click();
    const shown = answer('/api/calculator');
    await shown.locator('.status .code[data-status="400"]').waitFor();
    const direct = await postJson(app, '/api/calculator?operation=add&a=2', {});
    expect(await shown.locator('.error-text').textContent()).toBe(direct.body.error);
    expect(await shown.textContent()).toContain('Invalid parameters: b');
    await shown.screenshot({ path: join(SHOTS, 'calculator-error.png') });
  });

  it('decodes a transaction answer and hands it to an injected wallet', async () => {
    const recipient = getAddress('0x000000000000000000000000000000000000dead');
    const transfer = form('/api/debug-transfer');
    await page.locator('#wallet').fill(FAKE_WALLET.account);
    await transfer.locator('input[name=to]').fill(recipient);
    await transfer.locator('input[name=amount]').fill('123456789012345678901');
    await transfer.locator('button[type=submit]').click();
    const decoded = answer('/api/debug-transfer').locator(
      'table[aria-label="decoded transaction"]',
    );
    expect(await cell(decoded, 'function')).toBe('transfer');
    expect(await cell(decoded, 'to')).toBe(TOKEN);
    expect(await cell(decoded, 'recipient (address)')).toBe(recipient);
    expect(await cell(decoded, 'amount (uint256)')).toBe('123456789012345678901');
    expect(await cell(decoded, 'gas')).toBe('65000');
    await page.locator('button.send-wallet').click();
    await page.locator('.wallet-result', { hasText: 'Sent:' }).waitFor();
    // The page shows where the answer's intent stands, without reporting the wallet's hash.
    const status = answer('/api/debug-transfer').locator('.intent-status[data-status]');
    await status.waitFor();
    expect(await status.getAttribute('data-status')).toBe('answered');
    const intent = (await status.textContent())?.match(/^Intent ([\w-]{32}): answered$/)?.[1];
    expect(intent).toBeDefined();
    const read = await app.inject({ method: 'GET', url: `/api/transactions/${intent}` });
    expect(read.json()).toMatchObject({ data: { status: 'answered' } });
    expect(read.json().data.hash).toBeUndefined();
    const calls = await page.evaluate(
      () => (globalThis as unknown as { walletCalls: unknown[] }).walletCalls,
    );
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient, 123456789012345678901n],
    });
    expect(calls).toContainEqual({
      method: 'eth_sendTransaction',
      params: [
        expect.objectContaining({ from: FAKE_WALLET.account, to: TOKEN, data, gas: '0xfde8' }),
      ],
    });
    await answer('/api/debug-transfer').screenshot({ path: join(SHOTS, 'transaction.png') });
  });

  it('lists the rules a mini-app breaks', async () => {
    await page.route('**/debug/checks', (route) =>
      route.fulfill({ json: [{ id: 'tools', title: 'Tools', problems: ['title is empty'] }] }),
    );
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    const box = page.locator('[data-checks="tools"]');
    expect(await box.getAttribute('class')).toContain('fail');
    expect(await box.locator('li').allTextContents()).toEqual(['title is empty']);
    await page.unroute('**/debug/checks');
  });

  it('loaded nothing from elsewhere and broke no policy', () => {
    expect(elsewhere).toEqual([]);
    expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
  });
});
