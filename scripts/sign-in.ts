/**
 * `npm run sign-in -- [--account N]`: signs in to a running service (`npm run dev`) with an
 * account of the dev mnemonic, through its real routes (GET /api/auth/nonce, POST /api/auth/siwe,
 * as src/client's signIn does), and prints the session's bearer token alone on standard output,
 * for `Authorization: Bearer <token>` on the calls of a `user: 'verified'` action. What it did goes
 * to standard error. Exits 0 with a token, 1 when the service or the chain refused or did not
 * answer, 2 on bad usage. See docs/dev-loop.md, "Signing in: npm run sign-in".
 */
import { createPublicClient, http } from 'viem';
import { signIn } from '../src/client';
import { DEV_CHAIN_PORT, DEV_SERVICE_PORT } from './dev/dev-ports';
import { UsageError } from './sign/answer';
import { devAccount } from './sign/send';

const USAGE = `usage: npm run sign-in -- [options]     (prints a bearer token)
  --account <index|0x…>    the dev account that signs in (default 0; 0 to 4 are funded)
  --chain <id>             the chain of the session (default: the id of the chain at --rpc)
  --rpc <url>              the dev chain (default http://127.0.0.1:$DEV_CHAIN_PORT, 8545)
  --service <url>          the service (default http://127.0.0.1:$PORT, 3000)
  -h, --help               this text`;

interface SignInOptions {
  account: number | `0x${string}`;
  chainId?: number;
  rpcUrl: string;
  serviceUrl: string;
}

const FLAGS = new Set(['--account', '--chain', '--rpc', '--service']);

function parseOptions(args: readonly string[], env: NodeJS.ProcessEnv): SignInOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    if (!FLAGS.has(args[i])) throw new UsageError(`unknown argument ${args[i]}`);
    const value = args[i + 1];
    if (value === undefined) throw new UsageError(`${args[i]} needs a value`);
    flags.set(args[i], value);
    i++;
  }
  const account = flags.get('--account') ?? '0';
  if (!/^(\d{1,3}|0x[0-9a-fA-F]{40})$/.test(account))
    throw new UsageError(`--account ${account}: an account index or an address`);
  const chain = flags.get('--chain');
  if (chain !== undefined && !/^[1-9]\d{0,15}$/.test(chain))
    throw new UsageError(`--chain ${chain}: a chain id`);
  return {
    account: account.startsWith('0x') ? (account as `0x${string}`) : Number(account),
    chainId: chain === undefined ? undefined : Number(chain),
    rpcUrl: flags.get('--rpc') ?? `http://127.0.0.1:${env.DEV_CHAIN_PORT || DEV_CHAIN_PORT}`,
    serviceUrl: flags.get('--service') ?? `http://127.0.0.1:${env.PORT || DEV_SERVICE_PORT}`,
  };
}

/** The id of the chain at `rpcUrl`: the chain `npm run dev` runs passes for Fuji (43113). */
async function chainIdAt(rpcUrl: string): Promise<number> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  try {
    return await client.getChainId();
  } catch (error) {
    throw new Error(
      `no chain answers at ${rpcUrl} (is npm run dev running? --rpc names another, --chain ` +
        `gives the id): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
}

async function main(args: readonly string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  let options;
  let signer;
  try {
    options = parseOptions(args, process.env);
    signer = devAccount(options.account);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`sign-in: ${error.message}\n${USAGE}`);
    return 2;
  }
  const chainId = options.chainId ?? (await chainIdAt(options.rpcUrl));
  const { account, index } = signer;
  const result = await signIn(account, { baseUrl: options.serviceUrl, chainId });
  if (!result.ok) {
    const { failure } = result;
    console.error(
      `sign-in: ${options.serviceUrl} refused dev account ${index} ${account.address}: ` +
        `${failure.error ?? ''} ${failure.message ?? ''}`.trim(),
    );
    return 1;
  }
  const { session } = result;
  console.error(
    `sign-in: dev account ${index} ${session.address} signed in on chain ${session.chainId} at ` +
      `${options.serviceUrl}, until ${new Date(session.expiresAt * 1000).toISOString()}`,
  );
  console.log(session.token);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      `sign-in: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
    process.exitCode = 1;
  },
);
