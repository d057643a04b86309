import { Logger } from '@nestjs/common';
import type { WeatherConfig } from './weather.config';
import { ActionException, ResultCache } from '../../kit';
import { MemoryCacheStore } from '../../outbound/cache/cache.store';
import { type ExternalHttp, UpstreamError } from '../../outbound/http/external-http';
import { WeatherService } from './weather.service';

const CONFIG: WeatherConfig = {
  geocodingUrl: 'https://geo.example/v1/search',
  forecastUrl: 'https://wx.example/v1/forecast?apikey=k',
};

/** A JSON answer, an UpstreamError to reject with, or a function producing the answer. */
type Answer = unknown;

/** Stands in for the network: answers per host, records every URL asked. */
class FakeHttp {
  readonly urls: URL[] = [];
  geo: Answer = {
    results: [{ name: 'Paris', country: 'France', latitude: 48.85, longitude: 2.35 }],
  };
  forecast: Answer = {
    current: {
      time: '2026-11-22T12:00',
      temperature_2m: 12.3,
      wind_speed_10m: 4.5,
      weather_code: 61,
    },
  };

  getJson(url: string | URL): Promise<unknown> {
    const parsed = new URL(url);
    this.urls.push(parsed);
    const answer = parsed.host === 'geo.example' ? this.geo : this.forecast;
    if (answer instanceof UpstreamError) return Promise.reject(answer);
    if (typeof answer === 'function') return (answer as () => Promise<unknown>)();
    return Promise.resolve(answer);
  }

  calls(host: string): number {
    return this.urls.filter((u) => u.host === host).length;
  }
}

async function thrown(promise: Promise<unknown>): Promise<ActionException> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ActionException);
  return error as ActionException;
}

describe('WeatherService', () => {
  let http: FakeHttp;
  let service: WeatherService;

  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  beforeEach(() => {
    http = new FakeHttp();
    const cache = new ResultCache(new MemoryCacheStore(), { ttlSeconds: 300, prefix: 't:' });
    service = new WeatherService(http as unknown as ExternalHttp, cache, CONFIG);
  });

  it('geocodes, reads the current weather and describes it', async () => {
    const result = await service.lookup('  Paris ');
    expect(result).toEqual({
      data: {
        city: 'Paris',
        country: 'France',
        latitude: 48.85,
        longitude: 2.35,
        temperature: 12.3,
        windSpeed: 4.5,
        condition: 'Slight rain',
        observedAt: '2026-11-22T12:00:00.000Z',
      },
      message: 'Slight rain, 12.3 °C in Paris, France',
      metadata: { cached: false },
    });
    const [geo, forecast] = http.urls;
    expect(geo.pathname).toBe('/v1/search');
    expect(geo.searchParams.get('name')).toBe('paris');
    expect(forecast.searchParams.get('latitude')).toBe('48.85');
    expect(forecast.searchParams.get('longitude')).toBe('2.35');
    expect(forecast.searchParams.get('current')).toBe('temperature_2m,wind_speed_10m,weather_code');
    expect(forecast.searchParams.get('timezone')).toBe('UTC');
    expect(forecast.searchParams.get('apikey')).toBe('k');
  });

  it('names an unknown weather code instead of failing, and tolerates a missing country', async () => {
    http.geo = { results: [{ name: 'Vostok', latitude: -78.46, longitude: 106.84 }] };
    http.forecast = {
      current: {
        time: '2026-11-22T06:15Z',
        temperature_2m: -60,
        wind_speed_10m: 20,
        weather_code: 42,
      },
    };
    const { data, message } = await service.lookup('Vostok');
    expect(data).toMatchObject({
      country: null,
      condition: 'Unknown conditions (code 42)',
      observedAt: '2026-11-22T06:15:00.000Z',
    });
    expect(message).toBe('Unknown conditions (code 42), -60 °C in Vostok');
  });

  it.each([{}, { results: [] }])(
    'answers 404 naming the city when geocoding finds nothing (%j)',
    async (geo) => {
      http.geo = geo;
      const error = await thrown(service.lookup('Atlantis'));
      expect(error.getStatus()).toBe(404);
      expect(error.error).toContain('Atlantis');
      expect(http.calls('wx.example')).toBe(0);
    },
  );

  it.each<[string, 'geo' | 'forecast', Answer]>([
    ['geocoding status', 'geo', new UpstreamError('status', 'Upstream answered HTTP 500', 500)],
    ['geocoding malformed', 'geo', new UpstreamError('malformed', 'bad')],
    ['geocoding network', 'geo', new UpstreamError('network', 'Upstream unreachable')],
    ['results not a list', 'geo', { results: {} }],
    ['place without coordinates', 'geo', { results: [{ name: 'X', latitude: '1' }] }],
    ['geocoding not an object', 'geo', [1, 2]],
    ['forecast status', 'forecast', new UpstreamError('status', 'Upstream answered HTTP 502', 502)],
    ['no current block', 'forecast', { hourly: {} }],
    [
      'non-numeric temperature',
      'forecast',
      {
        current: {
          time: '2026-01-01T00:00',
          temperature_2m: null,
          wind_speed_10m: 1,
          weather_code: 0,
        },
      },
    ],
    [
      'unreadable time',
      'forecast',
      { current: { time: 'yesterday', temperature_2m: 1, wind_speed_10m: 1, weather_code: 0 } },
    ],
  ])('answers 500 "the weather service failed" on %s', async (_case, step, answer) => {
    http[step] = answer;
    const error = await thrown(service.lookup('Paris'));
    expect(error.getStatus()).toBe(500);
    expect(error.error).toBe('The weather service failed');
    expect(JSON.stringify(error.details)).not.toMatch(/example|apikey/);
  });

  it.each(['geo', 'forecast'] as const)(
    'answers 500 "timed out" when the %s call times out',
    async (step) => {
      http[step] = new UpstreamError('timeout', 'Upstream did not answer within 5000 ms');
      const error = await thrown(service.lookup('Paris'));
      expect(error.getStatus()).toBe(500);
      expect(error.error).toBe('The weather service timed out');
    },
  );

  it('lets a programming error propagate rather than blaming the weather service', async () => {
    const bug = new TypeError('bug');
    http.geo = () => Promise.reject(bug);
    await expect(service.lookup('Paris')).rejects.toBe(bug);
  });

  it('caches per normalised city and says so in metadata', async () => {
    expect((await service.lookup('Paris')).metadata).toEqual({ cached: false });
    expect((await service.lookup(' PARIS ')).metadata).toEqual({ cached: true });
    expect(http.calls('geo.example')).toBe(1);
    await service.lookup('Lyon');
    expect(http.calls('geo.example')).toBe(2);
  });

  it('sends the geocoder the normalised city it caches under, whatever the spelling', async () => {
    await service.lookup('  ＰＡＲＩＳ ');
    expect((await service.lookup('paris')).metadata).toEqual({ cached: true });
    expect((await service.lookup('Paris\t')).metadata).toEqual({ cached: true });
    await service.lookup('New \n  York');
    expect((await service.lookup('new york')).metadata).toEqual({ cached: true });
    const names = http.urls.filter((u) => u.host === 'geo.example');
    expect(names.map((u) => u.searchParams.get('name'))).toEqual(['paris', 'new york']);
  });

  it("answers 'not found' in each caller's own spelling, even when their lookups were shared", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    http.geo = () => gate.then(() => ({ results: [] }));
    const first = thrown(service.lookup('ATLANTIS'));
    const second = thrown(service.lookup(' atlantis '));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(http.calls('geo.example')).toBe(1);
    expect([a.getStatus(), b.getStatus()]).toEqual([404, 404]);
    expect(a.details.message).toBe('No city named "ATLANTIS" was found');
    expect(b.details.message).toBe('No city named "atlantis" was found');
  });

  it('coalesces concurrent lookups of one city into one upstream round', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const place = http.geo;
    http.geo = () => gate.then(() => place);
    const lookups = Array.from({ length: 5 }, () => service.lookup('Paris'));
    release();
    const results = await Promise.all(lookups);
    expect(results.filter((r) => r.metadata?.cached === false)).toHaveLength(1);
    expect(http.calls('geo.example')).toBe(1);
    expect(http.calls('wx.example')).toBe(1);
  });

  it('does not cache failures', async () => {
    const good = http.forecast;
    http.forecast = new UpstreamError('status', 'Upstream answered HTTP 500', 500);
    await thrown(service.lookup('Paris'));
    http.forecast = good;
    expect((await service.lookup('Paris')).metadata).toEqual({ cached: false });
    expect(http.calls('geo.example')).toBe(2);
  });
});
