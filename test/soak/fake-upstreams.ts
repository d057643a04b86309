import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

/** Geocoding, forecast and price answers good enough for load: every city exists. */
export async function startFakeUpstreams(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    let body: unknown = {};
    if (url.pathname.startsWith('/geo')) {
      const name = url.searchParams.get('name') ?? 'Nowhere';
      body = { results: [{ name, country: 'Testland', latitude: 1.5, longitude: 2.5 }] };
    } else if (url.pathname.startsWith('/forecast')) {
      body = {
        current: {
          time: '2026-11-22T12:00',
          temperature_2m: 12.3,
          wind_speed_10m: 4.5,
          weather_code: 3,
        },
      };
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${port}` };
}
