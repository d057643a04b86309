import { loadWeatherConfig } from './weather.config';
import { bootError } from '../../testing/boot-error';

describe('boot errors never echo secrets of URL-valued settings', () => {
  it.each([
    ['WEATHER_GEOCODING_URL', 'https://geo example.com/v1/search?apikey=s3cret'],
    ['WEATHER_FORECAST_URL', 'https://[zz]/v1/forecast?apikey=s3cret'],
  ])('%s=%s is not echoed even though it does not parse as a URL', (name, value) => {
    const message = bootError(() => loadWeatherConfig({ [name]: value }));
    expect(message).toMatch(
      new RegExp(`${name}=https://(geo example\\.com|\\[zz\\])/<path>\\?<query>:`),
    );
    expect(message).not.toMatch(/s3cret|search|forecast/);
  });

  it('redacts the same way a URL that parses but is refused', () => {
    const message = bootError(() =>
      loadWeatherConfig({ WEATHER_FORECAST_URL: 'gopher://k:s3cret@wx.example/forecast?a=1' }),
    );
    expect(message).toContain(
      'WEATHER_FORECAST_URL=gopher://<credentials>@wx.example/<path>?<query>:',
    );
  });
});
