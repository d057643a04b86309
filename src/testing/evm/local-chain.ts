import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { createPublicClient, createWalletClient, defineChain, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
/*
 * Hardhat 2's in-process network (the EDR engine, a native npm package: nothing is downloaded at
 * install or run time) served over HTTP by its own JSON-RPC server. These modules are Hardhat's
 * internals, imported here only: tests see a plain JSON-RPC endpoint on 127.0.0.1.
 */
import { resolveConfig } from 'hardhat/internal/core/config/config-resolution';
import { createProvider } from 'hardhat/internal/core/providers/construction';
import { JsonRpcServer } from 'hardhat/internal/hardhat-network/jsonrpc/server';

export type { LocalChain, LocalWallet } from '../chain-types';
import { DEV_MNEMONIC, type LocalChain } from '../chain-types';
/** Hardhat's well-known development mnemonic: its accounts start with 10 000 of the native coin. */
export { DEV_MNEMONIC };

export interface LocalChainOptions {
  /** 31337 unless a test needs the chain to pass for another (say 43113, Avalanche Fuji). */
  chainId?: number;
  accountCount?: number;
  /** 0 (a free port) unless a developer wants a fixed one. */
  port?: number;
}

/** EDR's native class, shared by every module registry of the process, and its first instance. */
type NativeEdrContext = (new () => object) & { shared?: object };

/**
 * One EdrContext per process. Hardhat makes one per loading of its provider module, and Jest
 * loads modules afresh for every test file while the native addon (and the global tracing
 * subscriber EDR sets) stays loaded in the worker: each later context printed "Failed to set
 * global tracing subscriber… Please only initialize EdrContext once". The native class is the
 * one object every registry shares, so the first context is kept on it and handed out again.
 */
function shareEdrContext(): void {
  const edrPath = require.resolve('@nomicfoundation/edr', {
    paths: [dirname(require.resolve('hardhat/package.json'))],
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const edr = require(edrPath) as { EdrContext: NativeEdrContext };
  const Native = edr.EdrContext;
  if (Native.name !== 'EdrContext') return; // shared already, in this registry
  edr.EdrContext = function SharedEdrContext(): object {
    Native.shared ??= new Native();
    return Native.shared;
  } as unknown as NativeEdrContext;
}

/** Rejects with the listen error (EADDRINUSE, EACCES) when 127.0.0.1:`port` cannot be opened. */
async function probePort(port: number): Promise<void> {
  const probe = createServer();
  probe.listen(port, '127.0.0.1');
  await Promise.race([
    once(probe, 'listening'),
    once(probe, 'error').then(([error]) => Promise.reject(error as Error)),
  ]);
  await new Promise((resolve) => probe.close(resolve));
}

/** Starts a fresh EVM (instant mining, EIP-1559 fees) on 127.0.0.1 at a free port. */
export async function startLocalChain({
  chainId = 31337,
  accountCount = 5,
  port: wanted = 0,
}: LocalChainOptions = {}): Promise<LocalChain> {
  // Hardhat resolves its paths from a config file's location; this file stands in for one.
  const config = resolveConfig(__filename, {
    networks: { hardhat: { chainId, accounts: { mnemonic: DEV_MNEMONIC, count: accountCount } } },
  });
  // Hardhat's server has no listener for a listen error: a port in use would crash the process
  // with a stack. A probe first turns it into an EADDRINUSE error the caller can name.
  if (wanted !== 0) await probePort(wanted);
  shareEdrContext();
  const provider = await createProvider(config, 'hardhat');
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: wanted, provider });
  const { port } = await server.listen();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const chain = defineChain({
    id: chainId,
    name: `Local chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  const accounts = Array.from({ length: accountCount }, (_, addressIndex) =>
    mnemonicToAccount(DEV_MNEMONIC, { addressIndex }),
  );
  return {
    rpcUrl,
    chainId,
    chain,
    accounts,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
    wallet: (account) => createWalletClient({ account, chain, transport, pollingInterval: 50 }),
    stop: () => server.close(),
  };
}
