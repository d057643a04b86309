import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { createTestApp, type InjectedJson, postJson } from '../support/app.factory';
import { FakeUpstream, reply } from '../support/upstream.server';

const CURRENT = reply.json({
  current: { time: '2026-11-22T12:00', temperature_2m: 12.3, wind_speed_10m: 4.5, weather_code: 3 },
});

/** What a geocoder answers: its own spelling of the place, whatever it was asked. */
const found = (name: string) =>
  reply.json({ results: [{ name, country: 'France', latitude: 48.85341, longitude: 2.3488 }] });

describe('Result cache keys: one entry per city however it is spelled', () => {
  let upstream: FakeUpstream;
  let app: NestFastifyApplication;

  const ask = (city: string): Promise<InjectedJson> =>
    postJson(app, '/api/weather', { params: { city } });
  const cachedFlags = (answers: InjectedJson[]): unknown[] =>
    answers.map((a) => (a.body.metadata as { cached: boolean }).cached);
  const namesSent = (): (string | null)[] =>
    upstream.requests.filter((r) => r.path === '/geo').map((r) => r.query.get('name'));

  beforeAll(async () => {
    upstream = await FakeUpstream.start();
    app = await createTestApp({
      actions: [WeatherModule],
      env: {
        WEATHER_GEOCODING_URL: `${upstream.base}/geo`,
        WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it('shares one entry between "  PARIS ", "paris" and full-width "ＰＡＲＩＳ", asking the geocoder for "paris"', async () => {
    upstream.route('/geo', found('Paris')).route('/forecast', CURRENT);
    const answers = [];
    for (const city of ['  PARIS ', 'paris', 'ＰＡＲＩＳ', 'Paris\t'])
      answers.push(await ask(city));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(cachedFlags(answers)).toEqual([false, true, true, true]);
    expect(namesSent()).toEqual(['paris']);
    expect(upstream.count('/forecast')).toBe(1);
    for (const { body } of answers) expect(body.data).toEqual(answers[0].body.data);
  });

  it('sends the normalised form whichever spelling comes first', async () => {
    upstream.route('/geo', found('Lyon')).route('/forecast', CURRENT);
    const first = await ask('ＬＹＯＮ');
    const second = await ask('lyon');
    expect(cachedFlags([first, second])).toEqual([false, true]);
    expect(namesSent()).toEqual(['lyon']);
  });

  it('collapses inner whitespace: "New   York" and "new york" are one entry', async () => {
    upstream.route('/geo', found('New York')).route('/forecast', CURRENT);
    const answers = [await ask('New \n  York'), await ask('new york')];
    expect(cachedFlags(answers)).toEqual([false, true]);
    expect(namesSent()).toEqual(['new york']);
  });

  it('makes one upstream round for concurrent requests spelled differently', async () => {
    upstream.route('/geo', reply.slow(50, found('Metz'))).route('/forecast', CURRENT);
    const answers = await Promise.all(['METZ', ' metz', 'Ｍｅｔｚ', 'metz  '].map(ask));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(cachedFlags(answers).filter((cached) => !cached)).toHaveLength(1);
    expect(namesSent()).toEqual(['metz']);
  });
});
