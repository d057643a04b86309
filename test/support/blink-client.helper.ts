/**
 * A blink client made of Dialect's own code: @dialectlabs/blinks-core 0.20.7 fetches, parses and
 * chains the blinks (BlinkInstance, its action components, unfurlUrlToBlinkApiUrl), and the
 * wallet is Dialect's EVM adapter itself, `useEvmWagmiAdapter` of @dialectlabs/blinks 0.22.5
 * (its built `hooks/evm` module, src/hooks/evm/useEvmWagmiAdapter.ts), rendered by React's test
 * renderer inside a WagmiProvider. Its wagmi config is what a page's would be, with wagmi's `mock`
 * connector as the wallet: one dev account, on the chain of the test chain's chain file. The mock
 * sends `eth_sendTransaction` to that chain's node, which signs with the account (Hardhat holds
 * the dev mnemonic's keys), so the adapter's own deserialize → sendTransaction → receipt runs.
 *
 * Not run: blinks-core's BlinkContainer (the component a page renders, with its own Layout of
 * buttons and its security states from Dialect's registry); `execute` repeats its steps
 * (dist/index.cjs, "BlinkContainer": component.post(account) → adapter.signTransaction →
 * adapter.confirmTransaction → blink.chain(links.next, {signature, account}); for a `message`
 * answer, adapter.signMessage(data) → blink.chain(links.next, {signature, account, state, data})),
 * with the context it passes. `useFormDefaults` repeats what @dialectlabs/blinks' form does
 * before a click (dist/chunk-IMVQOLQJ.cjs, buildDefaultFormValues).
 */
import {
  type AbstractActionComponent,
  type BlinkAdapter,
  BlinkInstance,
  FormActionComponent,
  setProxyUrl,
  SingleValueActionComponent,
} from '@dialectlabs/blinks-core';
import { useEvmWagmiAdapter } from '@dialectlabs/blinks/hooks/evm';
import type { ActionPostResponse } from '@solana/actions-spec';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { connect, createConfig, disconnect, http, mock } from '@wagmi/core';
import { readFileSync } from 'node:fs';
import { createElement, useEffect } from 'react';
import { create } from 'react-test-renderer';
import {
  type Address,
  type Chain,
  defineChain,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { useConnectorClient, WagmiProvider } from 'wagmi';
import type { TestChain } from '../../src/testing/chain-types';

// Dialect's client goes through its proxy (proxy.dial.to) by default; a test reaches no internet.
// Turning it off is announced with a warning, expected here.
jest.spyOn(console, 'warn').mockImplementationOnce(() => undefined);
setProxyUrl('');

/** One click of a blink as Dialect's client makes it: the POST's answer, what landed, what comes next. */
export interface BlinkStep {
  /** The action's POST answer (a transaction, or a post/completed step). */
  response: ActionPostResponse;
  /** The receipt of the transaction the adapter sent, when the answer was one. */
  receipt?: TransactionReceipt;
  /** The adapter's signature of a `message` answer's data. */
  signedMessage?: Hex;
  /** The blink the client shows next (links.next), or null when the chain ends. */
  next: BlinkInstance | null;
}

/** Dialect's EVM adapter, mounted for one account, and how to take it down. */
export interface DialectWallet {
  adapter: BlinkAdapter;
  address: Address;
  testChain: TestChain;
  close: () => Promise<void>;
}

/** The chain as the chain file lists it: its id, name, coin and node, as a page would declare it. */
function chainFromFile(testChain: TestChain): Chain {
  const { chains } = JSON.parse(readFileSync(testChain.chainFile, 'utf8')) as {
    chains: Record<string, { name: string; rpcUrl: string; nativeCurrency: { symbol: string } }>;
  };
  const id = testChain.chain.chainId;
  const { name, rpcUrl, nativeCurrency } = chains[String(id)];
  const { symbol } = nativeCurrency;
  return defineChain({
    id,
    name,
    nativeCurrency: { name: symbol, symbol, decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * The adapter is driven as a page drives it, outside act(): wagmi settles its state in its own
 * promises, which the test awaits through the adapter (React 18 would otherwise warn on each
 * update that act() did not wrap it).
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

/**
 * Renders Dialect's adapter for `address`, connected through wagmi's mock connector, and
 * resolves once the adapter holds the connector's client (before that it answers "No wallet
 * connected"): the effect that sees the client resolves it, no polling.
 */
export async function dialectWallet(
  testChain: TestChain,
  address: Address,
): Promise<DialectWallet> {
  const chain = chainFromFile(testChain);
  const config = createConfig({
    chains: [chain],
    connectors: [mock({ accounts: [address] })],
    transports: { [chain.id]: http() },
    // A local chain mines at once: receipts are polled often, not every 4 s.
    pollingInterval: 50,
    multiInjectedProviderDiscovery: false,
    // Nothing persisted: with storage, WagmiProvider (reconnectOnMount off) would clear on mount
    // the connection made below, as one restored from storage.
    storage: null,
  });
  await connect(config, { connector: config.connectors[0] });
  const queryClient = new QueryClient();
  let resolve: (adapter: BlinkAdapter) => void = () => undefined;
  const ready = new Promise<BlinkAdapter>((done) => (resolve = done));
  function Wallet(): null {
    const { adapter } = useEvmWagmiAdapter({ onConnectWalletRequest: () => Promise.resolve() });
    const { data: client } = useConnectorClient();
    useEffect(() => {
      if (client) resolve(adapter);
    }, [adapter, client]);
    return null;
  }
  const provider = createElement(
    QueryClientProvider,
    { client: queryClient },
    createElement(Wallet),
  );
  const root = create(createElement(WagmiProvider, { config, reconnectOnMount: false }, provider));
  const adapter = await ready;
  return {
    adapter,
    address,
    testChain,
    close: async () => {
      root.unmount();
      queryClient.clear();
      await disconnect(config);
    },
  };
}

/** One click on `component`, run as blinks-core's BlinkContainer runs it, with Dialect's adapter. */
export async function execute(
  blink: BlinkInstance,
  component: AbstractActionComponent,
  { adapter, testChain }: DialectWallet,
): Promise<BlinkStep> {
  const context = {
    action: component.parent,
    actionType: 'unknown' as const,
    originalUrl: component.parent.url,
    triggeredLinkedAction: component,
  };
  const account = await adapter.connect(context);
  if (!account) throw new Error('No wallet');
  const response = (await component.post(account)) as ActionPostResponse;
  if (response.type === 'message') {
    const signed = await adapter.signMessage(response.data, context);
    if ('error' in signed) throw new Error(signed.error);
    const { signature } = signed;
    const { state, data } = response;
    const next = await blink.chain(response.links.next, { signature, account, state, data });
    return { response, signedMessage: signature as Hex, next };
  }
  let signature: Hash | undefined;
  if (response.type === 'transaction') {
    const signed = await adapter.signTransaction(response.transaction, context);
    if ('error' in signed) throw new Error(signed.error);
    await adapter.confirmTransaction(signed.signature, context);
    signature = signed.signature as Hash;
  }
  const next = response.links?.next
    ? await blink.chain(response.links.next, { account, signature })
    : null;
  const receipt = signature
    ? await testChain.chain.publicClient.getTransactionReceipt({ hash: signature })
    : undefined;
  return { response, receipt, next };
}

/**
 * What @dialectlabs/blinks' form holds before the user types (buildDefaultFormValues): the option
 * marked `selected` of each select and radio field, and the selected boxes of a checkbox.
 */
export function useFormDefaults(component: AbstractActionComponent): void {
  for (const parameter of component.parameters) {
    const options = 'options' in parameter ? parameter.options : [];
    const selected = options.filter((option) => option.selected).map((option) => option.value);
    const value = parameter.type === 'checkbox' ? selected : selected[0];
    if (value === undefined || !['select', 'radio', 'checkbox'].includes(parameter.type ?? '')) {
      continue;
    }
    if (component instanceof FormActionComponent) component.setValue(value, parameter.name);
    else if (component instanceof SingleValueActionComponent) component.setValue(String(value));
  }
}

export { BlinkInstance };
