import { Writable } from 'node:stream';
import { createRootLogger } from './root-logger';

/** What the logger wrote, one string per write (pino writes one line at a time). */
class Lines extends Writable {
  readonly written: string[] = [];

  constructor() {
    super({ decodeStrings: false });
  }

  override _write(chunk: unknown, _encoding: string, done: () => void): void {
    this.written.push(String(chunk));
    done();
  }

  json(): Record<string, unknown>[] {
    return this.written.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

describe('createRootLogger', () => {
  it('writes one JSON object per line, with the level by name and an ISO time', async () => {
    const lines = new Lines();
    const logger = await createRootLogger({ level: 'info', pretty: false, destination: lines });
    logger.info({ reqId: 'r-1' }, 'hello');
    logger.debug('not at info');
    expect(lines.written).toHaveLength(1);
    expect(lines.written[0]).toMatch(/^\{.*\}\n$/);
    expect(lines.json()[0]).toMatchObject({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      reqId: 'r-1',
      msg: 'hello',
    });
  });

  it('censors authorization and cookie headers wherever headers are logged', async () => {
    const lines = new Lines();
    const logger = await createRootLogger({ level: 'info', pretty: false, destination: lines });
    const headers = { authorization: 'Bearer T0KEN', cookie: 'sid=C00KIE', accept: 'json' };
    logger.info({ headers, req: { headers }, err: { config: { headers } } }, 'headers');
    expect(lines.written[0]).not.toMatch(/T0KEN|C00KIE/);
    expect(lines.json()[0]).toMatchObject({
      headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'json' },
      req: { headers: { authorization: '[redacted]', cookie: '[redacted]' } },
      err: { config: { headers: { authorization: '[redacted]' } } },
    });
  });

  it('cuts every URL to scheme and host: in the message, an error, its stack and fields', async () => {
    const lines = new Lines();
    const logger = await createRootLogger({ level: 'info', pretty: false, destination: lines });
    const err = new Error('request to https://user:pa55@node.example/v3/K3Y?apikey=QU3RY failed');
    logger.error(
      { err, url: 'http://api.example/P4TH?key=QU3RY' },
      'call to https://node.example/v3/K3Y failed',
    );
    expect(lines.written[0]).not.toMatch(/pa55|K3Y|QU3RY|P4TH/);
    const [line] = lines.json();
    expect(line.msg).toBe('call to https://node.example/<path> failed');
    expect(line.url).toBe('http://api.example/<path>?<query>');
    expect(line.err).toMatchObject({
      message: 'request to https://<credentials>@node.example/<path>?<query> failed',
      stack: expect.stringContaining('\n    at '),
    });
  });

  it('writes one readable line per entry in development, without colour codes off a terminal', async () => {
    const lines = new Lines();
    const logger = await createRootLogger({ level: 'debug', pretty: true, destination: lines });
    logger.debug({ reqId: 'r-2', context: 'Weather' }, 'first\nsecond https://h.example/K3Y');
    logger.error({ err: new Error('boom') }, 'failed');
    await new Promise<void>((resolve) => setImmediate(resolve));
    const text = lines.written.join('');
    expect(text.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^\[[\d:.]+\] DEBUG: first\\nsecond https:\/\/h\.example\/<path> .*"reqId":"r-2"/,
      ),
      expect.stringMatching(/^\[[\d:.]+\] ERROR: failed .*"stack":"Error: boom\\n {4}at /),
    ]);
    expect(text).not.toContain('\u001b[');
  });
});
