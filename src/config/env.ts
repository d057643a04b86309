import { plainToInstance } from 'class-transformer';
import { validateSync } from './validator-subset';
import { shownValue } from './redact-url';
import { isProductionEnv, requiredInProductionOf } from './required-in-production';

/** The environment a configuration is read from: process.env in production, a literal in tests. */
export type Env = Record<string, string | undefined>;

/** Injection token for the Env the application was booted with. */
export const ENV = Symbol('ENV');

/**
 * A class-transformer `@Transform` for a whole-number variable: the text becomes a number only when
 * it is one, so `@IsInt()` names the variable on `12abc` instead of reading NaN.
 */
export const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;

/**
 * A class-transformer `@Transform` for a boolean variable: only `true` and `false` convert, so
 * `@IsBoolean()` refuses `yes` or `1` rather than guessing.
 */
export const toBool = ({ value }: { value: unknown }): unknown =>
  value === 'true' ? true : value === 'false' ? false : value;

/**
 * A refused configuration: each problem names its variable (`NAME=shown value: reason`). Every
 * loader throws it; checkConfiguration gathers them all into one, printed at boot as its message
 * alone, never with a stack.
 */
export class ConfigError extends Error {
  constructor(
    /**
     * Each refused variable as `NAME=shown value: reason`, secrets in URLs redacted: what the boot
     * prints and a test can assert on.
     */
    readonly problems: readonly string[],
    what = 'configuration',
  ) {
    super(`Invalid ${what}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates environment variables against a class-validator class (defaults as property
 * initialisers); a bad value stops the boot with every problem named. The message may reach any
 * log: URL-valued settings show only their scheme and host (see shownValue).
 */
export function readEnv<T extends object>(
  schema: new () => T,
  env: Env,
  what = 'configuration',
): T {
  const set: Env = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const missing = requiredUnset(schema, set);
  const vars = plainToInstance(schema, set, { exposeDefaultValues: true });
  // An unset required one is named once, as unset, not again by each of its rules.
  const errors = validateSync(vars).filter((e) => !missing.some(([name]) => name === e.property));
  if (missing.length > 0 || errors.length > 0) {
    const problems = errors.map(
      (e) =>
        `${e.property}=${shownValue(e.property, e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`,
    );
    throw new ConfigError([...missing.map(([, problem]) => problem), ...problems], what);
  }
  return vars;
}

/**
 * The settings `@RequiredInProduction` marks: outside production an unset one takes its
 * development value (in `set`); in production each unset one is a problem naming it.
 */
function requiredUnset(schema: new () => object, set: Env): [string, string][] {
  const missing: [string, string][] = [];
  for (const [name, devDefault] of requiredInProductionOf(schema)) {
    if (set[name] !== undefined) continue;
    if (!isProductionEnv(set.NODE_ENV)) set[name] = devDefault;
    else
      missing.push([
        name,
        `${name} is unset: required when NODE_ENV=production (development and tests use ${shownValue(name, devDefault)})`,
      ]);
  }
  return missing;
}

/** class-validator `IsUrl` options for an absolute http(s) URL of an external service. */
export const httpUrlRule = {
  require_tld: false,
  require_protocol: true,
  protocols: ['http', 'https'],
};
