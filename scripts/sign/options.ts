import { DEV_CHAIN_PORT, DEV_SERVICE_PORT } from '../dev/dev-ports';
import { UsageError } from './answer';

export const USAGE = `usage: npm run sign -- <answer.json | -> [options]
  <answer.json | ->        the answer: a file, or - for standard input (curl -i output or JSON)
  --account <index|0x…>    the dev account that signs (default 0; 0 to 4 are funded)
  --intent <id>            the intent, when the input does not carry X-Action-Intent
  --rpc <url>              the chain (default http://127.0.0.1:$DEV_CHAIN_PORT, 8545)
  --service <url>          the service (default http://127.0.0.1:$PORT, 3000)
  --wait <seconds>         how long to wait for the intent to settle (default 30)`;

export interface SignOptions {
  /** A path, or `-` for standard input. */
  source: string;
  account: number | `0x${string}`;
  intent?: string;
  rpcUrl: string;
  serviceUrl: string;
  waitMs: number;
}

const FLAGS = new Set(['--account', '--intent', '--rpc', '--service', '--wait']);

/** The command line, with the dev loop's ports (DEV_CHAIN_PORT, PORT) as defaults. */
export function parseOptions(args: readonly string[], env: NodeJS.ProcessEnv): SignOptions {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FLAGS.has(args[i])) {
      if (args[i].startsWith('--')) throw new UsageError(`unknown option ${args[i]}`);
      rest.push(args[i]);
      continue;
    }
    const value = args[++i];
    if (value === undefined) throw new UsageError(`${args[i - 1]} needs a value`);
    flags.set(args[i - 1], value);
  }
  if (rest.length !== 1) throw new UsageError('name one answer: a file, or - for standard input');
  const account = flags.get('--account') ?? '0';
  if (!/^(\d{1,3}|0x[0-9a-fA-F]{40})$/.test(account))
    throw new UsageError(`--account ${account}: an account index or an address`);
  const wait = Number(flags.get('--wait') ?? 30);
  if (!Number.isFinite(wait) || wait < 0) throw new UsageError('--wait: a number of seconds');
  return {
    source: rest[0],
    account: account.startsWith('0x') ? (account as `0x${string}`) : Number(account),
    intent: flags.get('--intent'),
    rpcUrl: flags.get('--rpc') ?? `http://127.0.0.1:${env.DEV_CHAIN_PORT || DEV_CHAIN_PORT}`,
    serviceUrl: flags.get('--service') ?? `http://127.0.0.1:${env.PORT || DEV_SERVICE_PORT}`,
    waitMs: wait * 1000,
  };
}
