import { IsOptional, IsUrl } from 'class-validator';
import { type Env, readEnv } from './env';

export const WEATHER_CONFIG = Symbol('WEATHER_CONFIG');

const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

/** Open-Meteo's public, key-less endpoints by default; tests point them at a local server. */
class WeatherEnv {
  @IsOptional()
  @IsUrl(HTTP_URL)
  WEATHER_GEOCODING_URL = 'https://geocoding-api.open-meteo.com/v1/search';

  @IsOptional()
  @IsUrl(HTTP_URL)
  WEATHER_FORECAST_URL = 'https://api.open-meteo.com/v1/forecast';
}

export interface WeatherConfig {
  /** Open-Meteo-compatible geocoding search (`?name=…` → `results[]`). */
  geocodingUrl: string;
  /** Open-Meteo-compatible forecast (`?latitude=…&longitude=…&current=…` → `current`). */
  forecastUrl: string;
}

export function loadWeatherConfig(env: Env): WeatherConfig {
  const vars = readEnv(WeatherEnv, env, 'weather configuration');
  return { geocodingUrl: vars.WEATHER_GEOCODING_URL, forecastUrl: vars.WEATHER_FORECAST_URL };
}
