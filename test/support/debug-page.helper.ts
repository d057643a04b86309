import { Module } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { type Address, encodeFunctionData, erc20Abi } from 'viem';
import {
  ActionController,
  ActionParam,
  ActionParams,
  defineAction,
  defineMiniApp,
  type ExecutionResponse,
  RunAction,
} from '../../src/kit';
import { serializeUnsigned } from '../../src/evm/transaction/tx-serialization';

/** Debian's Chromium (`apt-get install chromium`); never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * `describe` when Chromium is installed, else `describe.skip` with a line saying how to run the
 * suite; under CI or REQUIRE_BROWSER (as .ci/run sets) a missing browser fails instead.
 */
export function describeWithBrowser(): jest.Describe {
  if (existsSync(CHROMIUM_PATH)) return describe;
  if (process.env.CI || process.env.REQUIRE_BROWSER) {
    throw new Error(`CI or REQUIRE_BROWSER is set but ${CHROMIUM_PATH} is missing`);
  }
  console.warn(`Browser suite skipped: install Debian's chromium (${CHROMIUM_PATH}) to run it`);
  return describe.skip;
}

/**
 * Launches Debian's Chromium headless through playwright-core, sandbox and background networking
 * off, so a browser suite runs as root in a container and reaches nothing but the test's server.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The token contract the fixture's transfer calls. */
export const TOKEN: Address = '0x5425890298aed601595a70AB815c96711a31Bc65';

class TokenTransferParams {
  @ActionParam({ type: 'address', label: 'Recipient', required: true })
  to!: Address;

  @ActionParam({ type: 'uint256', label: 'Amount (base units)', required: true })
  amount!: bigint;
}

const TOKEN_MINI_APP = defineMiniApp({
  id: 'token-tools',
  title: 'Token tools',
  description: 'A transaction-mode action answering a real ERC-20 transfer',
});

/** Transaction mode without a chain: a real unsigned ERC-20 `transfer`, RLP-serialized. */
@ActionController(
  defineAction({
    label: 'Transfer tokens',
    chains: { source: 43113 },
    path: '/api/debug-transfer',
    miniApp: TOKEN_MINI_APP,
    params: TokenTransferParams,
    samples: [{ params: { to: '0x000000000000000000000000000000000000dEaD', amount: '7' } }],
  }),
)
class TokenTransferController {
  @RunAction()
  run(@ActionParams() { to, amount }: TokenTransferParams): ExecutionResponse {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
    });
    return {
      serializedTransaction: serializeUnsigned(
        { chainId: 43113, to: TOKEN, data, gas: 65_000n, maxFeePerGas: 30_000_000_000n },
        'rlp',
      ),
      chainId: 43113,
      abi: erc20Abi,
      params: { functionName: 'transfer', args: { to, amount: amount.toString() } },
    };
  }
}

/**
 * A transaction-mode action (an ERC-20 transfer on Fuji) for the debugger page's suites: its answer
 * has the `abi` and `params` the page shows, without a chain behind it.
 */
@Module({ controllers: [TokenTransferController] })
export class TokenTransferModule {}

/** A stand-in for an injected wallet: records each request, answers a fixed account and hash. */
export const FAKE_WALLET = {
  account: '0x1111111111111111111111111111111111111111',
  hash: `0x${'ab'.repeat(32)}`,
};

/**
 * Run in the page (`page.addInitScript`): installs an EIP-1193 `window.ethereum` that answers
 * `account` and `hash` and records each call in `window.walletCalls`, so a suite checks what the
 * page asked a wallet without a wallet.
 */
export function installFakeWallet({ account, hash }: typeof FAKE_WALLET): void {
  const calls: { method: string; params?: unknown[] }[] = [];
  const answers: Record<string, unknown> = {
    eth_requestAccounts: [account],
    eth_chainId: '0xa869',
    eth_sendTransaction: hash,
  };
  // Runs in the page, where globalThis is the window.
  Object.assign(globalThis, {
    walletCalls: calls,
    ethereum: {
      request: (call: { method: string; params?: unknown[] }): Promise<unknown> => {
        calls.push(call);
        return Promise.resolve(answers[call.method] ?? null);
      },
    },
  });
}
