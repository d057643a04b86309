/**
 * Settings production must set and development and tests may leave out: an address to be paid,
 * a key of a service. `readEnv` applies the rule (src/config/env.ts); the configuration page's
 * table shows it (scripts/docs/config-table.ts); the smoke test of the production start sets
 * each to its development value (test/smoke.js).
 */
type EnvClass = abstract new () => object;

/** Each `…Env` class's settings that production must set, with their development values. */
const declared = new Map<EnvClass, Map<string, string>>();

/**
 * Marks a property of an `…Env` class as required when `NODE_ENV=production` (what an unset
 * NODE_ENV means): unset there, the boot stops naming the variable. With `NODE_ENV` `development`
 * or `test`, an unset variable reads as `devDefault`, which then meets the property's own rules
 * like any value: make it one anybody may know (a development account, a local URL), never a
 * secret. Use it instead of a property initialiser:
 *
 *   @RequiredInProduction('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
 *   @IsEthereumAddress()
 *   TEAM_ADDRESS!: string;
 */
export function RequiredInProduction(devDefault: string): PropertyDecorator {
  return (target, key) => {
    const schema = target.constructor as EnvClass;
    const settings = declared.get(schema) ?? new Map<string, string>();
    settings.set(String(key), devDefault);
    declared.set(schema, settings);
  };
}

/** The settings of one `…Env` class that production must set, by name, with their development values. */
export function requiredInProductionOf(schema: EnvClass): ReadonlyMap<string, string> {
  return declared.get(schema) ?? new Map<string, string>();
}

/**
 * Every such setting of the classes loaded so far (load the app's modules first): what the smoke
 * test of the production start sets, with its development value.
 */
export function requiredInProductionSettings(): Record<string, string> {
  const all: Record<string, string> = {};
  for (const settings of declared.values()) {
    for (const [name, devDefault] of settings) all[name] = devDefault;
  }
  return all;
}

/** `NODE_ENV` as the app reads it: unset or empty is production (src/config/app.config.ts). */
export const isProductionEnv = (nodeEnv: string | undefined): boolean =>
  nodeEnv !== 'development' && nodeEnv !== 'test';
