import { toHex } from 'viem';
import { startDevChain, type DevChain, DEV_CHAIN_ID, DEV_CHAIN_PORT } from './dev-chain';
import { type StandIns, startStandIns } from './stand-ins';

/** Out of reach of a developer clicking through the debugger page (production: 10 a minute). */
const LOCAL_RATE_LIMIT = '1000000';

export interface DevSetup {
  devChain: DevChain;
  /** The outside services the shipped actions call, stood in for on loopback. */
  standIns: StandIns;
  /** Stops the stand-ins and the chain. */
  stop(): Promise<void>;
  /** The service's environment: the caller's, then development mode and the local chain. */
  env: NodeJS.ProcessEnv;
}

/** A whole number from the environment, or the default; anything else stops the start. */
function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${name}="${text}" is not a whole number`);
  return value;
}

/**
 * Paid actions on the local chain (docs/agents.md): payments settle in-process with the last dev
 * account's key (it pays the gas) and swap-quote's are paid to the first (the deployer), unless
 * the caller set a facilitator (URL or key) or a payee of their own.
 */
function paymentDefaults(devChain: DevChain, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { accounts } = devChain.chain;
  const settler = accounts[accounts.length - 1].getHdKey().privateKey;
  const own = base.X402_FACILITATOR_URL !== undefined || base.X402_FACILITATOR_KEY !== undefined;
  return {
    X402_PAY_TO: accounts[0].address,
    ...(!own && settler && { X402_FACILITATOR_KEY: toHex(settler) }),
  };
}

/**
 * Everything `npm run dev` prepares before the watcher starts: the local chain (DEV_CHAIN_ID,
 * DEV_CHAIN_PORT) with its contracts and chain file, stand-ins for the outside services the
 * shipped actions call (weather, prices), and the service's environment. A value the
 * caller set wins over the development defaults, except the chain file, which must match.
 */
export async function prepareDev(base: NodeJS.ProcessEnv = process.env): Promise<DevSetup> {
  const [devChain, standIns] = await Promise.all([
    startDevChain({
      chainId: intFrom(base, 'DEV_CHAIN_ID', DEV_CHAIN_ID),
      port: intFrom(base, 'DEV_CHAIN_PORT', DEV_CHAIN_PORT),
    }),
    startStandIns(base),
  ]);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'development',
    RATE_LIMIT_IP_MAX: LOCAL_RATE_LIMIT,
    RATE_LIMIT_USER_MAX: LOCAL_RATE_LIMIT,
    ...paymentDefaults(devChain, base),
    ...standIns.env,
    ...base,
    ...devChain.env,
  };
  const stop = async (): Promise<void> => {
    await standIns.close();
    await devChain.stop();
  };
  return { devChain, standIns, env, stop };
}
