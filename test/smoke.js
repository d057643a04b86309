#!/usr/bin/env node
// Smoke test of the production start, exactly as the container runs it (`node dist/main.js`):
// boot on a free port, wait for GET /health, run one calculator request, read every mini-app's
// document and fetch its icon (copied into dist/ by the build), read GET /metrics on its own port
// (METRICS_PORT), run the pre-production check (`npm run check`, scripts/check.ts) against it,
// stop with SIGTERM and expect a clean exit. Plain Node plus the project's devDependencies (ts-node
// runs the two scripts), so it needs only `npm ci` and `npm run build` first.
//
// The check calls every action with its declared samples and must pass whole: no action is
// exempt. So the server gets every outside service a sample calls, on this machine: the local
// chain with the shipped contracts (`scripts/dev.ts --chain-only`, the chain of `npm run dev`,
// whose chain file the server reads) and a stand-in for the weather API. Every setting an action
// marks @RequiredInProduction (docs/adding-an-action.md) gets its development value, unless the
// environment sets it: production stops without them, and a team's new action must not stop CI.
'use strict';

const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { existsSync } = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const ENTRY = 'dist/main.js';
/** `npm run start:prod` as written in package.json (node's arguments), as the container runs it. */
const START = require('../package.json').scripts['start:prod'].split(/\s+/).slice(1);
const HEALTH_TRIES = 100; // × 200 ms: 20 s for a cold start on a busy machine
const HEALTH_INTERVAL_MS = 200;
const REQUEST_TIMEOUT_MS = 5000;
// Above the app's own SHUTDOWN_TIMEOUT_MS default (10 s), so the app's bound decides first.
const EXIT_TIMEOUT_MS = 15000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One HTTP request with a bound on its duration; resolves with the status, headers and text. */
function rawRequest(port, method, urlPath, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        timeout: REQUEST_TIMEOUT_MS,
        headers: payload
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
          : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in time`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The same, with the body parsed as JSON (every answer but an icon is JSON). */
async function request(port, method, urlPath, body) {
  const { status, text } = await rawRequest(port, method, urlPath, body);
  try {
    return { status, body: JSON.parse(text) };
  } catch {
    throw new Error(`${method} ${urlPath}: answer is not JSON: ${text.slice(0, 200)}`);
  }
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TypeScript script of the project as a child process (ts-node, types not checked). */
function tsScript(script, args, env = {}) {
  return spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The chain of `npm run dev` on a free port; resolves once its chain file is written. */
function startChain() {
  const child = tsScript('scripts/dev.ts', ['--chain-only'], { DEV_CHAIN_PORT: '0' });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /dev: chain file (\S+)/.exec(output);
      if (match) resolve({ child, chainFile: match[1], output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      reject(new Error(`the local chain exited during start-up (${code}):\n${output}`)),
    );
  });
}

async function stopChain(chain) {
  if (!chain || chain.child.exitCode !== null) return;
  const exited = once(chain.child, 'exit');
  chain.child.kill('SIGTERM');
  await exited;
}

/**
 * The settings production must set (@RequiredInProduction), each with its development value, read
 * from the build: loading the app's module loads every action's configuration class.
 */
function requiredInProduction() {
  require(path.join(ROOT, 'dist', 'app.module.js'));
  const registry = require(path.join(ROOT, 'dist', 'config', 'required-in-production.js'));
  return registry.requiredInProductionSettings();
}

/** Open-Meteo's two endpoints as the weather action reads them: one city, its current weather. */
async function startWeatherApi() {
  const answers = {
    '/geo': {
      results: [{ id: 1, name: 'Paris', country: 'France', latitude: 48.85, longitude: 2.35 }],
    },
    '/forecast': {
      current: {
        time: '2026-01-01T12:00',
        temperature_2m: 12.3,
        wind_speed_10m: 4.5,
        weather_code: 3,
      },
    },
  };
  const server = http.createServer((req, res) => {
    const body = answers[new URL(req.url, 'http://localhost').pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** `npm run check` against the server: its table is printed; any failing row fails the smoke. */
async function runCheck(port) {
  const check = tsScript('scripts/check.ts', [`http://127.0.0.1:${port}`]);
  let output = '';
  check.stdout.on('data', (chunk) => (output += chunk));
  check.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(check, 'close');
  console.log(output.trimEnd());
  if (code !== 0) throw new Error(`npm run check failed (exit ${code}): see the table above`);
}

async function waitForHealth(port, server) {
  for (let attempt = 1; attempt <= HEALTH_TRIES; attempt += 1) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`the server exited during start-up (code ${server.exitCode})`);
    }
    try {
      const { status, body } = await request(port, 'GET', '/health');
      if (status === 200 && body.status === 'ok') return;
    } catch {
      // not listening yet
    }
    await delay(HEALTH_INTERVAL_MS);
  }
  throw new Error(`GET /health did not answer after ${HEALTH_TRIES} tries`);
}

async function checkCalculator(port) {
  const { status, body } = await request(port, 'POST', '/api/calculator', {
    params: { operation: 'multiply', a: 6, b: 7 },
  });
  const data = body.data ?? {};
  if (status !== 200 || body.success !== true || data.result !== 42) {
    throw new Error(`calculator answered ${status}: ${JSON.stringify(body)}`);
  }
}

/** Every mini-app of the index: its document names an icon the build serves as an image. */
async function checkMiniApps(port) {
  const { status, body } = await request(port, 'GET', '/api/metadata');
  const miniApps = body.miniApps ?? [];
  if (status !== 200 || miniApps.length === 0) {
    throw new Error(`GET /api/metadata answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  for (const { metadataUrl } of miniApps) {
    const path = new URL(metadataUrl).pathname;
    const document = await request(port, 'GET', path);
    const { url, icon, actions } = document.body;
    if (document.status !== 200 || !url || !icon || !(actions.length >= 1 && actions.length <= 4)) {
      throw new Error(`GET ${path} answered ${document.status}: ${JSON.stringify(document.body)}`);
    }
    const { pathname, search } = new URL(icon);
    const image = await rawRequest(port, 'GET', pathname + search);
    if (image.status !== 200 || !/^image\//.test(image.headers['content-type'] ?? '')) {
      throw new Error(`icon ${pathname} answered ${image.status} ${image.headers['content-type']}`);
    }
  }
  return miniApps.length;
}

/** The Prometheus listener answers on its own port (METRICS_PORT), the service's families in it. */
function checkMetrics(metricsPort) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: metricsPort, path: '/metrics' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        res.statusCode === 200 && text.includes('dynamic_action_requests_total{')
          ? resolve()
          : reject(new Error(`GET /metrics answered ${res.statusCode}: ${text.slice(0, 200)}`)),
      );
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('GET /metrics: no answer')));
    req.on('error', reject);
  });
}

async function stop(server) {
  if (server.exitCode !== null)
    throw new Error(`the server had already exited (${server.exitCode})`);
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), EXIT_TIMEOUT_MS);
  const [code, signal] = await exited;
  clearTimeout(timer);
  if (code !== 0)
    throw new Error(`the server did not exit cleanly on SIGTERM (code ${code}, signal ${signal})`);
}

async function main() {
  if (!existsSync(path.join(ROOT, ENTRY))) {
    throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
  }
  const port = await freePort();
  const metricsPort = await freePort();
  const required = requiredInProduction();
  const [chain, weather] = await Promise.all([startChain(), startWeatherApi()]);
  let output = '';
  const server = spawn(process.execPath, START, {
    cwd: ROOT,
    env: {
      ...required,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      CHAIN_CONFIG_FILE: chain.chainFile,
      WEATHER_GEOCODING_URL: `${weather.base}/geo`,
      WEATHER_FORECAST_URL: `${weather.base}/forecast`,
      // Production writes token URIs only from a bounded Host (mint-nft's sample mints).
      ALLOWED_HOSTS: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  try {
    await waitForHealth(port, server);
    await checkCalculator(port);
    const miniApps = await checkMiniApps(port);
    await checkMetrics(metricsPort);
    await runCheck(port);
    await stop(server);
    console.log(`smoke: ${miniApps} mini-app documents and their icons served`);
    const names = Object.keys(required).filter((name) => !process.env[name]);
    if (names.length > 0)
      console.log(
        `smoke: set to their development values (required in production): ${names.join(', ')}`,
      );
  } catch (error) {
    if (server.exitCode === null) server.kill('SIGKILL');
    error.message += `\n--- server output ---\n${output.slice(-4000)}`;
    throw error;
  } finally {
    weather.server.close();
    await stopChain(chain);
  }
  console.log(
    `smoke: node ${START.join(' ')} on port ${port}: /health ok, 6 × 7 = 42, /metrics on ${metricsPort}, npm run check passed, clean exit on SIGTERM`,
  );
}

main().catch((error) => {
  console.error(`smoke: FAILED: ${error.message}`);
  process.exit(1);
});
