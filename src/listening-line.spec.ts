import { createServer, type Server } from 'node:net';
import { listeningLine, namePortInUse } from './listening-line';

async function bound(host: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
}

describe('listeningLine', () => {
  it.each([
    ['0.0.0.0', /^Listening on http:\/\/0\.0\.0\.0:\d+ \(every interface\)$/],
    ['127.0.0.1', /^Listening on http:\/\/127\.0\.0\.1:\d+$/],
    ['::1', /^Listening on http:\/\/\[::1\]:\d+$/],
  ])('names the address a socket bound to %s really listens on', async (host, line) => {
    const server = await bound(host);
    try {
      const text = listeningLine(server.address());
      expect(text).toMatch(line);
      expect(text).toContain(`:${(server.address() as { port: number }).port}`);
    } finally {
      server.close();
    }
  });
});

describe('namePortInUse', () => {
  it.each(['PORT', 'METRICS_PORT'] as const)(
    'turns a port taken into one line naming %s',
    async (variable) => {
      const taken = await bound('127.0.0.1');
      const { port } = taken.address() as { port: number };
      const second = createServer();
      const error = await new Promise<Error>((resolve) => {
        second.once('error', resolve);
        second.listen(port, '127.0.0.1');
      });
      taken.close();
      const named = namePortInUse(error, variable) as Error;
      expect(named.message).toBe(
        `${variable} ${port} is already in use on 127.0.0.1 (EADDRINUSE): stop what holds it ` +
          `(another npm start or npm run dev?), or set ${variable} to another port`,
      );
      expect(named.message).not.toContain('\n');
    },
  );

  it('leaves any other error as it is', () => {
    const other = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
    expect(namePortInUse(other, 'PORT')).toBe(other);
  });
});
