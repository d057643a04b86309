import { createServer, type Server } from 'node:net';
import { listeningLine } from './listening-line';

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
