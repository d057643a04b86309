import { IsEthereumAddress, IsInt, IsOptional, IsUrl } from 'class-validator';
import { Transform } from 'class-transformer';
import { checkConfiguration, registerConfigCheck } from './configuration.check';
import { ConfigError, type Env, readEnv, toInt } from './env';
import {
  isProductionEnv,
  RequiredInProduction,
  requiredInProductionOf,
  requiredInProductionSettings,
} from './required-in-production';

const DEV_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TEAM_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

class TeamTipEnv {
  /** Who receives the tips. */
  @RequiredInProduction(DEV_ADDRESS)
  @IsEthereumAddress()
  TEAM_TIP_ADDRESS!: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  TEAM_TIP_MAX = 10;
}

const load = (env: Env): TeamTipEnv => readEnv(TeamTipEnv, env, 'team tip configuration');

/** The problems a refused configuration names, one per line. */
function problems(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('@RequiredInProduction', () => {
  it('stops a production boot naming the unset variable, and an unset NODE_ENV is production', () => {
    for (const env of [{ NODE_ENV: 'production' }, {}, { NODE_ENV: '' }]) {
      expect(problems(() => load(env))).toEqual([
        `TEAM_TIP_ADDRESS is unset: required when NODE_ENV=production (development and tests use "${DEV_ADDRESS}")`,
      ]);
    }
  });

  it('counts an empty value as unset, like every variable', () => {
    expect(problems(() => load({ NODE_ENV: 'production', TEAM_TIP_ADDRESS: '' }))).toHaveLength(1);
  });

  it('takes the value production sets, through the property’s own rules', () => {
    expect(load({ NODE_ENV: 'production', TEAM_TIP_ADDRESS: TEAM_ADDRESS })).toMatchObject({
      TEAM_TIP_ADDRESS: TEAM_ADDRESS,
      TEAM_TIP_MAX: 10,
    });
    expect(problems(() => load({ NODE_ENV: 'production', TEAM_TIP_ADDRESS: 'bob' }))).toEqual([
      expect.stringMatching(/^TEAM_TIP_ADDRESS="bob": .*address/),
    ]);
  });

  it.each(['development', 'test'])(
    'with NODE_ENV=%s, reads an unset one as its development value',
    (nodeEnv) => {
      expect(load({ NODE_ENV: nodeEnv }).TEAM_TIP_ADDRESS).toBe(DEV_ADDRESS);
      expect(load({ NODE_ENV: nodeEnv, TEAM_TIP_ADDRESS: TEAM_ADDRESS }).TEAM_TIP_ADDRESS).toBe(
        TEAM_ADDRESS,
      );
    },
  );

  it('reports the missing one beside every other problem of the group', () => {
    expect(problems(() => load({ NODE_ENV: 'production', TEAM_TIP_MAX: 'many' }))).toEqual([
      expect.stringContaining('TEAM_TIP_ADDRESS is unset'),
      expect.stringContaining('TEAM_TIP_MAX="many"'),
    ]);
  });

  it('holds the development value to the property’s rules: a bad one fails every test boot', () => {
    class BadDefaultEnv {
      @RequiredInProduction('not a url')
      @IsUrl()
      TEAM_HOOK_URL!: string;
    }
    expect(problems(() => readEnv(BadDefaultEnv, { NODE_ENV: 'test' }))).toEqual([
      expect.stringMatching(/^TEAM_HOOK_URL=.*: .*URL/),
    ]);
  });

  it('stops the boot through checkConfiguration once a feature registers its loader', () => {
    registerConfigCheck(load);
    expect(() => checkConfiguration({ NODE_ENV: 'production' })).toThrow(
      /Invalid configuration:\n(?:.*\n)* {2}- TEAM_TIP_ADDRESS is unset: required when NODE_ENV=production/,
    );
    expect(() => checkConfiguration({ NODE_ENV: 'test' })).not.toThrow();
  });

  it('lists the settings, for the configuration table and the smoke test', () => {
    expect([...requiredInProductionOf(TeamTipEnv)]).toEqual([['TEAM_TIP_ADDRESS', DEV_ADDRESS]]);
    expect(requiredInProductionSettings()).toMatchObject({ TEAM_TIP_ADDRESS: DEV_ADDRESS });
    expect([
      isProductionEnv(undefined),
      isProductionEnv('test'),
      isProductionEnv('development'),
    ]).toEqual([true, false, false]);
  });
});
