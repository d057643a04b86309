import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Runs src/main.ts as `npm start` would (transpiled on the fly), and collects what it prints. */
async function boot(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src', 'main.ts')],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        METRICS_PORT: '0',
        PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

describe('a refused configuration stops the boot: every problem at once, one shape, no stack', () => {
  it('names the bad variables of every group in one message', async () => {
    const { code, output } = await boot({
      PORT: 'abc',
      CACHE_TTL_SECONDS: 'x',
      RATE_LIMIT_ON_STORE_ERROR: 'bogus',
      ALLOWED_ORIGINS: 'https://app.example.com/',
      TRUST_PROXY: '10.0.0.0/33',
      PUBLIC_BASE_URL: 'https://actions.example.com/?ref=1',
    });
    expect(code).toBe(1);
    expect(output.startsWith('Invalid configuration:\n')).toBe(true);
    for (const name of [
      'PORT',
      'CACHE_TTL_SECONDS',
      'RATE_LIMIT_ON_STORE_ERROR',
      'ALLOWED_ORIGINS',
      'TRUST_PROXY',
      'PUBLIC_BASE_URL',
    ]) {
      expect(output).toContain(`\n  - ${name}=`);
    }
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("feature modules' own variables are reported with the core ones, at once, without a stack", async () => {
    const { code, output } = await boot({
      PORT: 'abc',
      WEATHER_GEOCODING_URL: 'not a url',
      WEBHOOK_URL: 'https://hooks.example.com/in',
      INTENT_TTL_S: 'soon',
    });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n');
    for (const name of ['PORT', 'WEATHER_GEOCODING_URL', 'WEBHOOK_SECRET', 'INTENT_TTL_S']) {
      expect(output).toMatch(new RegExp(`\\n  - ${name}[=:]`));
    }
    expect(output.match(/Invalid configuration/g)).toHaveLength(1);
    expect(output).not.toMatch(/\sat \S+ \(|ExceptionHandler/);
  }, 60_000);
});
