import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from './validator-subset';
import type { HostPattern } from '../contract/host-syntax';
import { ConfigError, type Env, httpUrlRule, readEnv, toBool, toInt } from './env';
import { MAX_PUBLISHED_URL_LENGTH } from './mini-apps.config';
import {
  AtMostRequestTimeout,
  checkShutdownTimings,
  hostList,
  IsBaseUrl,
  IsHostList,
  IsOriginList,
  IsProxyList,
  list,
} from './app-env.rules';
import { IsAddressList, IsRedisUrl } from './redis-env.rules';
import { type RedisTarget, redisTargetOf } from './redis-target';

/** Injection token of the boot-validated AppConfig: `@Inject(APP_CONFIG) config: AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** Longest deadline accepted for the HTTP timeouts: one hour. */
const maxTimeoutMs = 3_600_000;
/** Headers deadline when HEADERS_TIMEOUT_MS is unset (or REQUEST_TIMEOUT_MS, if smaller). */
const defaultHeadersTimeoutMs = 10_000;

/** Environment variables of the core service, with their defaults (documented in docs/configuration.md, generated from this class). */
class CoreEnv {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsOptional()
  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  /** Only `development` shows internal error texts; anything else is treated as production. */
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV = 'production';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  BODY_LIMIT_BYTES = 1_048_576;

  @IsOptional()
  @IsString()
  @MinLength(1)
  METADATA_TITLE = 'Dynamic actions';

  @IsOptional()
  @IsString()
  @MinLength(1)
  METADATA_DESCRIPTION = 'Server-side actions for mini-app buttons';

  /** Icon of every mini-app (MINI_APP_<ID>_ICON_URL wins); the platform needs absolute http(s). */
  @IsOptional()
  @IsUrl(httpUrlRule)
  @MaxLength(MAX_PUBLISHED_URL_LENGTH)
  METADATA_ICON_URL?: string;

  /** Base of every published URL (metadata, token URIs); unset: the request's host. No credentials, query or fragment. */
  @IsOptional()
  @IsUrl(httpUrlRule)
  @IsBaseUrl()
  @MaxLength(MAX_PUBLISHED_URL_LENGTH)
  PUBLIC_BASE_URL?: string;

  /** Comma-separated origins allowed to call actions (`https://app.example.com`, no path); unset allows any origin. */
  @IsOptional()
  @IsOriginList()
  ALLOWED_ORIGINS?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  STRICT_ORIGIN = false;

  /** The debugger page (/debug) and the API reference (/docs); unset: on in development only. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DEBUG_UI?: boolean;

  /** Comma-separated proxy addresses or CIDRs whose X-Forwarded-For is believed. */
  @IsOptional()
  @IsProxyList()
  TRUST_PROXY = 'false';

  /**
   * The shared store (rate limits, cache, intents, the follower, sign-in, webhooks); unset: process
   * memory. `redis[s]://[user:password@]host:port[/db]` for one server, or
   * `redis[s]+cluster://[user:password@]host:port,host:port` for a Redis Cluster (seed nodes).
   */
  @IsOptional()
  @IsRedisUrl()
  REDIS_URL?: string;

  /** `true`: REDIS_URL names a seed node of a Redis Cluster (as `redis+cluster://` does). */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  REDIS_CLUSTER = false;

  /**
   * Comma-separated Sentinels (`host:port`, port 26379 by default) that name the primary; with
   * REDIS_SENTINEL_NAME. REDIS_URL then gives only the primary's credentials, database and TLS.
   */
  @IsOptional()
  @IsAddressList()
  REDIS_SENTINELS?: string;

  /** The primary's name the Sentinels watch (`sentinel monitor <name> …`). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  REDIS_SENTINEL_NAME?: string;

  /** How many replicas run, as a hint: above 1 without REDIS_URL the boot warns (as it does under Kubernetes). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  REPLICAS?: number;

  /** Put before every key this service writes in Redis, so services (or test runs) can share one. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_.:-]{0,64}$/, {
    message: 'REDIS_KEY_PREFIX must be up to 64 letters, digits or _ . : -',
  })
  REDIS_KEY_PREFIX = '';

  /** How long SIGTERM waits for accepted requests before forcing the exit. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /** Deadline for a whole request (headers and body) to arrive; past it: 408. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(maxTimeoutMs)
  REQUEST_TIMEOUT_MS = 30_000;

  /** Deadline for the headers of a request; unset: 10000, or REQUEST_TIMEOUT_MS if smaller. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @AtMostRequestTimeout()
  HEADERS_TIMEOUT_MS?: number;

  /** How long an idle keep-alive connection stays open; above common load balancers' 60 s. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(maxTimeoutMs)
  KEEP_ALIVE_TIMEOUT_MS = 72_000;

  /** Concurrent connections the server accepts; 0: no limit. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  MAX_CONNECTIONS = 10_000;

  /**
   * Connections the kernel holds for the server before it accepts them (the listen backlog,
   * capped by net.core.somaxconn), shared among the ACCEPT_SOCKETS sockets. Node's 511 overflowed
   * when 2,000 clients connected at once on a busy server: connections dropped there waited on
   * SYN/ACK retransmits and timed out.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65_535)
  LISTEN_BACKLOG = 4096;

  /**
   * Listening sockets sharing the port (SO_REUSEPORT, Linux; 1 elsewhere), for a pod that faces
   * clients directly: behind a proxy's keep-alive pool one is enough. Above 1, any process of the
   * same user may join the port and take a share of its connections (docs/performance.md).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1024)
  ACCEPT_SOCKETS = 1;

  /** Comma-separated hosts requests may name; unset: any syntactically valid host. */
  @IsOptional()
  @IsHostList()
  ALLOWED_HOSTS?: string;

  /** Pre-stop delay: still serving (readiness 503) before the listener closes. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_DELAY_MS = 0;

  /** How long a keep-alive connection may stay idle after the listener closes. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_DRAIN_MS = 1000;
}

/**
 * The core service's settings, validated once at boot (loadConfig): what main.ts listens with, what
 * the metadata publishes and the security switches. Injected with APP_CONFIG.
 */
export interface AppConfig {
  port: number;
  host: string;
  nodeEnv: 'development' | 'production' | 'test';
  bodyLimitBytes: number;
  metadata: { title: string; description: string; iconUrl?: string };
  /** Absolute base URL published in metadata; derived from the request's host when unset. */
  publicBaseUrl?: string;
  /** Empty: any origin may call actions. */
  allowedOrigins: string[];
  /** Refuse action requests that carry no Origin header. */
  strictOrigin: boolean;
  /** Serve /debug and /docs (the API document at /api/openapi.json is always served). */
  debugUi: boolean;
  /** Proxies whose X-Forwarded-For decides the client IP; empty: the socket's address. */
  trustProxy: string[];
  /** REDIS_URL as given (the target below reads it). */
  redisUrl?: string;
  /** The shared store: one server, a cluster or a Sentinel-managed primary; unset: none. */
  redis?: RedisTarget;
  /** Before every Redis key (counters and cached results); empty by default. */
  redisKeyPrefix: string;
  /** REPLICAS: how many replicas the deployment says run, when it says. */
  replicas?: number;
  shutdownTimeoutMs: number;
  /** Deadlines for a request to arrive (headers, whole request) and for an idle connection. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** 0: no limit. */
  maxConnections: number;
  listenBacklog: number;
  acceptSockets: number;
  /** Empty: any valid host may be named by a request. */
  allowedHosts: HostPattern[];
  shutdownDelayMs: number;
  shutdownDrainMs: number;
}

/** Reads and validates the environment; a bad value stops the boot with every problem named. */
export function loadConfig(env: Env = process.env): AppConfig {
  const vars = readEnv(CoreEnv, env);
  checkShutdownTimings(vars);
  // Each socket holds its share of the backlog: more sockets than places would hold none.
  if (vars.ACCEPT_SOCKETS > vars.LISTEN_BACKLOG) {
    throw new ConfigError([
      `ACCEPT_SOCKETS (${vars.ACCEPT_SOCKETS}) must not exceed LISTEN_BACKLOG ` +
        `(${vars.LISTEN_BACKLOG}), which the sockets share`,
    ]);
  }
  const redis = redisTargetOf(vars);
  if (redis.problems.length > 0) throw new ConfigError(redis.problems);
  return {
    port: vars.PORT,
    host: vars.HOST,
    nodeEnv: vars.NODE_ENV as AppConfig['nodeEnv'],
    bodyLimitBytes: vars.BODY_LIMIT_BYTES,
    metadata: {
      title: vars.METADATA_TITLE,
      description: vars.METADATA_DESCRIPTION,
      iconUrl: vars.METADATA_ICON_URL,
    },
    publicBaseUrl: vars.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    allowedOrigins: list(vars.ALLOWED_ORIGINS),
    strictOrigin: vars.STRICT_ORIGIN,
    debugUi: vars.DEBUG_UI ?? vars.NODE_ENV === 'development',
    trustProxy: vars.TRUST_PROXY === 'false' ? [] : list(vars.TRUST_PROXY),
    redisUrl: vars.REDIS_URL,
    redis: redis.target,
    redisKeyPrefix: vars.REDIS_KEY_PREFIX,
    replicas: vars.REPLICAS,
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: vars.REQUEST_TIMEOUT_MS,
    headersTimeoutMs:
      vars.HEADERS_TIMEOUT_MS ?? Math.min(defaultHeadersTimeoutMs, vars.REQUEST_TIMEOUT_MS),
    keepAliveTimeoutMs: vars.KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: vars.MAX_CONNECTIONS,
    listenBacklog: vars.LISTEN_BACKLOG,
    acceptSockets: vars.ACCEPT_SOCKETS,
    allowedHosts: vars.ALLOWED_HOSTS === undefined ? [] : (hostList(vars.ALLOWED_HOSTS) ?? []),
    shutdownDelayMs: vars.SHUTDOWN_DELAY_MS,
    shutdownDrainMs: vars.SHUTDOWN_DRAIN_MS,
  };
}
