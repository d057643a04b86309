import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { WEATHER_CONFIG, type WeatherConfig } from './weather.config';
import {
  ActionException,
  type ActionResult,
  limitLog,
  logText,
  ResultCache,
  ExternalHttp,
  UpstreamError,
} from '../../kit';
import { normalizeKeyText } from '../../outbound';
import { describeWeatherCode } from './weather-codes';

export interface Weather {
  /** The place's name as the geocoder spells it. */
  city: string;
  /** Null for places the geocoder attaches to no country. */
  country: string | null;
  latitude: number;
  longitude: number;
  /** Degrees Celsius. */
  temperature: number;
  /** Kilometres per hour, 10 m above ground. */
  windSpeed: number;
  condition: string;
  /** ISO 8601, UTC. */
  observedAt: string;
}

interface Place {
  name: string;
  country: string | null;
  latitude: number;
  longitude: number;
}

interface Current {
  temperature: number;
  windSpeed: number;
  weatherCode: number;
  observedAt: string;
}

type Step = 'geocoding' | 'forecast';

/** Not cached (errors never are) and answered in each caller's own spelling. */
class CityNotFound extends Error {}

/**
 * Geocodes a city, then reads its current weather, through the shared result cache: one upstream
 * round per city per TTL however many users ask at once, whatever their spelling ("  PARIS ",
 * "paris" and "ＰＡＲＩＳ" are one entry, and the geocoder is sent "paris"). Upstream failures
 * become 500s whose text names the weather service, never the URL it lives at.
 */
@Injectable()
export class WeatherService {
  private readonly logger = new Logger(WeatherService.name);

  constructor(
    private readonly http: ExternalHttp,
    private readonly cache: ResultCache,
    @Inject(WEATHER_CONFIG) private readonly config: WeatherConfig,
  ) {}

  async lookup(city: string): Promise<ActionResult<Weather>> {
    const query = normalizeKeyText(city);
    const { value, cached } = await this.cache
      .getOrCompute(`weather:${query}`, () => this.fetchWeather(query))
      .catch((error: unknown) => {
        throw error instanceof CityNotFound ? notFound(city.trim()) : error;
      });
    const where = value.country ? `${value.city}, ${value.country}` : value.city;
    return {
      data: value,
      message: `${value.condition}, ${value.temperature} °C in ${where}`,
      metadata: { cached },
    };
  }

  private async fetchWeather(query: string): Promise<Weather> {
    const place = await this.call('geocoding', query, () => this.geocode(query));
    if (!place) throw new CityNotFound();
    const current = await this.call('forecast', query, () => this.currentWeather(place));
    return {
      city: place.name,
      country: place.country,
      latitude: place.latitude,
      longitude: place.longitude,
      temperature: current.temperature,
      windSpeed: current.windSpeed,
      condition: describeWeatherCode(current.weatherCode),
      observedAt: current.observedAt,
    };
  }

  private async geocode(name: string): Promise<Place | undefined> {
    const query = { name, count: '1', language: 'en', format: 'json' };
    const url = withQuery(this.config.geocodingUrl, query);
    return parsePlace(await this.http.getJson(url, { upstream: 'weather_geocoding' }));
  }

  private async currentWeather({ latitude, longitude }: Place): Promise<Current> {
    const url = withQuery(this.config.forecastUrl, {
      latitude: String(latitude),
      longitude: String(longitude),
      current: 'temperature_2m,wind_speed_10m,weather_code',
      timezone: 'UTC',
      // The defaults today, pinned so the units in Weather cannot change under us.
      temperature_unit: 'celsius',
      wind_speed_unit: 'kmh',
    });
    return parseCurrent(await this.http.getJson(url, { upstream: 'weather_forecast' }));
  }

  /** Turns an upstream failure into the 500 the user sees; anything else is a bug and propagates. */
  private async call<T>(step: Step, query: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      // One line a minute per kind of failure, whichever cities fail; the city is user text.
      limitLog(this.logger).warn(
        `${step} ${error.message}`,
        `Weather ${step} call failed for "${logText(query)}": ${error.message}`,
      );
      const timedOut = error.kind === 'timeout';
      throw new ActionException(
        HttpStatus.INTERNAL_SERVER_ERROR,
        timedOut ? 'The weather service timed out' : 'The weather service failed',
        timedOut
          ? {
              message: 'The weather service took too long, try again later',
              code: 'UPSTREAM_TIMEOUT',
            }
          : {
              message: 'The weather service is unavailable, try again later',
              code: 'UPSTREAM_ERROR',
            },
      );
    }
  }
}

function notFound(city: string): ActionException {
  return new ActionException(HttpStatus.NOT_FOUND, `City ${city} not found`, {
    message: `No city named "${city}" was found`,
    data: { city },
  });
}

/** Keeps what the configured URL already carries (a key for a paid plan, say). */
function withQuery(base: string, params: Record<string, string>): URL {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const malformed = (what: string): UpstreamError =>
  new UpstreamError('malformed', `Unexpected ${what} answer`);

/** No `results` (Open-Meteo's answer for an unknown name) means not found, not a failure. */
function parsePlace(body: unknown): Place | undefined {
  if (!isRecord(body)) throw malformed('geocoding');
  if (body.results === undefined) return undefined;
  if (!Array.isArray(body.results)) throw malformed('geocoding');
  if (body.results.length === 0) return undefined;
  const first: unknown = body.results[0];
  if (
    !isRecord(first) ||
    typeof first.name !== 'string' ||
    !isFiniteNumber(first.latitude) ||
    !isFiniteNumber(first.longitude)
  ) {
    throw malformed('geocoding');
  }
  return {
    name: first.name,
    country: typeof first.country === 'string' ? first.country : null,
    latitude: first.latitude,
    longitude: first.longitude,
  };
}

function parseCurrent(body: unknown): Current {
  const current = isRecord(body) ? body.current : undefined;
  if (
    !isRecord(current) ||
    !isFiniteNumber(current.temperature_2m) ||
    !isFiniteNumber(current.wind_speed_10m) ||
    !Number.isInteger(current.weather_code) ||
    typeof current.time !== 'string'
  ) {
    throw malformed('forecast');
  }
  const observedAt = toUtcIso(current.time);
  if (!observedAt) throw malformed('forecast');
  return {
    temperature: current.temperature_2m,
    windSpeed: current.wind_speed_10m,
    weatherCode: current.weather_code as number,
    observedAt,
  };
}

const LOCAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** With timezone=UTC, Open-Meteo sends times without an offset ("2026-11-22T12:00"). */
function toUtcIso(time: string): string | undefined {
  const match = LOCAL_ISO.exec(time);
  if (!match) return undefined;
  const date = new Date(match[3] ? time : `${time}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
