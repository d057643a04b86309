/**
 * `npm run dev`: the local development loop. Starts the local chain (127.0.0.1:8545, passing for
 * Avalanche Fuji 43113, the chain every shipped action declares) with the shipped contracts
 * deployed, writes a chain file that lists them, then runs the service in development mode with
 * high rate limits under `nest start --watch`. Ctrl-C (or SIGTERM) stops the service, then the
 * chain. DEV_CHAIN_ID / DEV_CHAIN_PORT choose another chain id or port; DEV_OUT_DIR where the
 * watcher builds (default dist/dev, never dist/ itself: that is the production build). Nothing it
 * started outlives it: the service, the watcher, the chain and the stand-ins all stop.
 *
 * Stand-ins on loopback answer for the outside services the shipped actions call (weather,
 * prices), so everything, `npm run check` included, works offline.
 *
 * `npm run dev -- --chain-only`: the chain, its chain file and the stand-ins alone, for a
 * service started another way (CI's smoke test runs the production build on it).
 */
import { once } from 'node:events';
import { prepareDev } from './dev/dev-env';
import { startWatcher } from './dev/watcher';
import { portInUseMessage } from './dev/dev-chain';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

async function main(chainOnly: boolean): Promise<number> {
  const { devChain, standIns, env, stop } = await prepareDev();
  const { chain, chainFile } = devChain;
  console.log(`dev: chain ${chain.chainId} at ${chain.rpcUrl}`);
  console.log(`dev: chain file ${chainFile}`);
  for (const line of standIns.lines) console.log(`dev: ${line}`);
  console.log(`dev: funded accounts (mnemonic "${'test '.repeat(11)}junk"):`);
  for (const account of chain.accounts) console.log(`  ${account.address}`);
  if (chainOnly) {
    await Promise.race(SIGNALS.map((signal) => once(process, signal)));
    await stop();
    console.log('dev: chain stopped');
    return 0;
  }
  const watcher = startWatcher(env, env.DEV_OUT_DIR);
  // The watcher stops the service and exits; the chain stops after both, never under them.
  for (const signal of SIGNALS) process.on(signal, watcher.signal);
  // A closed terminal: the watcher is in a session of its own, so it hears of it from here.
  process.on('SIGHUP', () => watcher.signal('SIGTERM'));
  const { code, signal } = await watcher.stopped;
  watcher.cleanUp();
  await stop();
  console.log(`dev: stopped (service ${signal ?? `exit ${code}`}), chain stopped`);
  return code ?? 0;
}

main(process.argv.includes('--chain-only')).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      `dev: ${portInUseMessage(error) ?? (error instanceof Error ? error.message : String(error))}`,
    );
    process.exit(1);
  },
);
