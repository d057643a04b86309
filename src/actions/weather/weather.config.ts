import { IsOptional, IsUrl } from '../../config/validator-subset';
import { type Env, httpUrlRule, readEnv } from '../../config/env';
import { registerConfigCheck } from '../../config/configuration.check';

export const WEATHER_CONFIG = Symbol('WEATHER_CONFIG');

/** Open-Meteo's public, key-less endpoints by default; tests point them at a local server. */
class WeatherEnv {
  @IsOptional()
  @IsUrl(httpUrlRule)
  WEATHER_GEOCODING_URL = 'https://geocoding-api.open-meteo.com/v1/search';

  @IsOptional()
  @IsUrl(httpUrlRule)
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

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadWeatherConfig);
