import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stand-ins on loopback for every outside service a shipped action calls, so the dev loop (and
 * `npm run check` against it) works without internet: Open-Meteo's geocoding and forecast
 * (weather) and a simple-price API (portfolio's optional USD prices). Answers are fixed and
 * plausible, never real data. A variable the developer set (WEATHER_GEOCODING_URL, …) wins: that
 * service is then the real one.
 */
export interface StandIns {
  /** The service's variables pointing at the stand-ins (only those the caller left unset). */
  env: Record<string, string>;
  /** One line per stand-in, for the dev loop's banner. */
  lines: string[];
  close(): Promise<void>;
}

/** Fixed USD prices by price id; any other id costs 1. */
const PRICES: Record<string, number> = {
  'avalanche-2': 25,
  'wrapped-avax': 25,
  ethereum: 3000,
  weth: 3000,
  'usd-coin': 1,
  tether: 1,
};

type Handler = (url: URL) => unknown;

const ROUTES: Record<string, Handler> = {
  // Open-Meteo geocoding: the city asked for, wherever it is, placed in Paris.
  '/weather/geo': (url) => ({
    results: [
      {
        id: 1,
        name: url.searchParams.get('name') ?? 'Paris',
        country: 'France',
        latitude: 48.85,
        longitude: 2.35,
      },
    ],
  }),
  '/weather/forecast': () => ({
    current: {
      time: new Date().toISOString().slice(0, 16),
      temperature_2m: 12.3,
      wind_speed_10m: 4.5,
      weather_code: 3,
    },
  }),
  // `GET ?ids=a,b&vs_currencies=usd` → `{a: {usd}, b: {usd}}`.
  '/prices': (url) =>
    Object.fromEntries(
      (url.searchParams.get('ids') ?? '')
        .split(',')
        .filter(Boolean)
        .map((id) => [id, { usd: PRICES[id] ?? 1 }]),
    ),
};

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const route: Handler | undefined = Object.hasOwn(ROUTES, url.pathname)
    ? ROUTES[url.pathname]
    : undefined;
  res.writeHead(route ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify(route ? route(url) : { error: 'not a stand-in route' }));
}

/** Starts the stand-ins on a free loopback port. */
export async function startStandIns(base: NodeJS.ProcessEnv): Promise<StandIns> {
  const server: Server = createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const wanted: [name: string, url: string, what: string][] = [
    ['WEATHER_GEOCODING_URL', `${root}/weather/geo`, 'weather (Open-Meteo geocoding)'],
    ['WEATHER_FORECAST_URL', `${root}/weather/forecast`, 'weather (Open-Meteo forecast)'],
    ['PRICE_API_URL', `${root}/prices`, 'prices (simple-price API)'],
  ];
  const kept = wanted.filter(([name]) => base[name] === undefined || base[name] === '');
  return {
    env: Object.fromEntries(kept.map(([name, url]) => [name, url])),
    lines: wanted.map(([name, url, what]) =>
      kept.some(([k]) => k === name)
        ? `${what}: stand-in ${url} (${name})`
        : `${what}: ${name} as you set it`,
    ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
