import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { UploadAdmission } from '../../src/kit/uploads/upload-admission';
import { createTestApp } from '../support/app.factory';
import { LargeUploadFixtureModule } from '../fixtures/large-upload.fixture';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

// A collection before each reading, so it shows what is live, not what is not collected yet.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const live = (): number => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
/**
 * What stays live: the least of five readings 20 ms apart. This Jest worker ran other suites
 * before this one: what their teardown frees within a turn or two, or chunks in flight, moved a
 * single reading by megabytes (a busy CI read 13 MB grown where this suite alone reads 4–5 MB;
 * after three suites in one worker, a first reading was 34 MB above the next).
 */
const held = async (): Promise<number> => {
  let least = live();
  for (let reading = 1; reading < 5; reading++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    least = Math.min(least, live());
  }
  return least;
};

const MiB = 1_048_576;
const INFLIGHT = 4 * MiB;
/** What the test allows above the caps: parsers, sockets and their buffers (docs/hardening.md). */
const BASELINE = 8 * MiB;
const CLIENTS = 24;
/** Each client sends this much of its body, then nothing more. */
const SENT = 1.5 * MiB;

describe('Uploads: memory under many stalled uploads (issue 24.1)', () => {
  let app: NestFastifyApplication;
  let port: number;
  let admission: UploadAdmission;

  beforeAll(async () => {
    app = await createTestApp({
      env: {
        UPLOAD_MAX_BYTES: String(2 * MiB),
        UPLOAD_MAX_INFLIGHT_BYTES: String(INFLIGHT),
        BODY_LIMIT_BYTES: String(MiB),
        TRUST_PROXY: '127.0.0.1',
      },
      actions: [LargeUploadFixtureModule],
    });
    await app.listen(0, '127.0.0.1');
    ({ port } = app.getHttpServer().address() as { port: number });
    admission = app.get(UploadAdmission);
  });
  afterAll(() => app.close());

  it('holds at most UPLOAD_MAX_INFLIGHT_BYTES plus a baseline, refusing the rest with 503', async () => {
    const before = await held();
    const ips = Array.from({ length: CLIENTS }, (_, i) => `10.1.0.${i + 1}`);
    // The attackers run in a child process: what they have not sent yet is not the server's memory.
    const attack = spawn(process.execPath, ['-e', ATTACKER, String(port), String(SENT), ...ips], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const answers: number[] = [];
    attack.stdout.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) answers.push(Number(line));
    });
    try {
      const running = (): number => ips.reduce((sum, ip) => sum + admission.running(ip), 0);
      // Settled: every client refused, or admitted with all it sent counted.
      while (answers.length + running() < CLIENTS || admission.inflightBytes < running() * SENT)
        await new Promise((resolve) => setImmediate(resolve));
      const grown = (await held()) - before;
      expect(answers.every((status) => status === 503)).toBe(true);
      expect(answers.length).toBeGreaterThanOrEqual(CLIENTS - Math.floor(INFLIGHT / SENT));
      expect(admission.inflightBytes).toBeLessThanOrEqual(INFLIGHT);
      expect(grown).toBeLessThan(INFLIGHT + BASELINE);
    } finally {
      attack.kill();
      await once(attack, 'exit');
    }
  }, 60_000);
});

/**
 * One stalled upload per address given: half of them three 700 KB text fields (held in memory
 * as they are), half a 2 MB file, sent chunked, the first SENT bytes only; prints each answer's
 * status on a line.
 */
const ATTACKER = `
const net = require('node:net');
const [port, sent, ...ips] = process.argv.slice(1);
const text = 'x'.repeat(700000);
ips.forEach(async (ip, i) => {
  const form = new FormData();
  if (i % 2 === 0) for (const name of ['a', 'b', 'c']) form.append(name, text);
  else form.append('archive', new Blob([require('node:crypto').randomBytes(2097152 - 1000)]), 'x.bin');
  const response = new Response(form);
  const body = Buffer.from(await response.arrayBuffer()).subarray(0, Number(sent));
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  let received = '';
  socket.on('data', (data) => {
    if (received === '') process.stdout.write(data.toString('latin1').slice(9, 12) + '\\n');
    received += data;
  });
  socket.write('POST /api/upload-large HTTP/1.1\\r\\nhost: 127.0.0.1\\r\\n' +
    'content-type: ' + response.headers.get('content-type') + '\\r\\n' +
    'transfer-encoding: chunked\\r\\nx-forwarded-for: ' + ip + '\\r\\n\\r\\n' +
    body.length.toString(16) + '\\r\\n');
  socket.write(body);
  socket.write('\\r\\n');
});
`;
