import {
  type BaseError,
  AbiDecodingZeroDataError,
  createPublicClient,
  custom,
  decodeAbiParameters,
  zeroAddress,
  decodeFunctionResult,
  deploylessCallViaBytecodeBytecode,
  encodeDeployData,
  encodeFunctionData,
  type Hex,
  multicall3Abi,
  RawContractError,
} from 'viem';
import { getCallError, getContractError } from 'viem/utils';
import type { RpcCall } from '../chains/rpc-batch';
import type { ChainRead } from './check-batch';

type Settled<T> = PromiseSettledResult<T>;

let multicall3: Promise<Hex> | undefined;

/**
 * The Multicall3 code viem sends with a deployless multicall (its `multicall3Bytecode` is not
 * exported): read once from the call viem's own `multicall` makes, to a node that only records it.
 */
export function multicall3Code(): Promise<Hex> {
  multicall3 ??= (async () => {
    let sent: Hex = '0x';
    const recorder = createPublicClient({
      transport: custom({
        request: ({ params }: { params: [{ data: Hex }] }): Promise<never> => {
          sent = params[0].data;
          return Promise.reject(new Error('recorded'));
        },
      }),
    });
    const view = {
      address: zeroAddress,
      abi: multicall3Abi,
      functionName: 'getCurrentBlockTimestamp',
    } as const;
    await recorder.multicall({ contracts: [view, view], deployless: true, allowFailure: true });
    const [code] = decodeAbiParameters(
      DEPLOYLESS[0].inputs,
      `0x${sent.slice(deploylessCallViaBytecodeBytecode.length)}`,
    );
    return code;
  })();
  return multicall3;
}

/** The deployless wrapper's constructor: (code to run, data to call it with). */
const DEPLOYLESS = [
  {
    type: 'constructor',
    stateMutability: 'nonpayable',
    inputs: [{ type: 'bytes' }, { type: 'bytes' }],
  },
] as const;

/**
 * The views of a check as at most ONE `eth_call` of the batch, and how to read its answer: none
 * for no view, the view itself for one, viem's deployless multicall for two or more (Multicall3's
 * code sent with the call, so no chain needs it deployed; all read in one EVM execution). It
 * encodes and decodes as viem's `readContract` and `multicall` (allowFailure) do, with their
 * helpers, and fails each view with the error they would give.
 */
export function viewsCall(
  views: readonly ChainRead[],
  tag: string,
  code: Hex,
): { call?: RpcCall; read(answer?: Settled<unknown>): Settled<unknown>[] } {
  if (views.length === 0) return { read: () => [] };
  if (views.length === 1) {
    const [view] = views;
    const data = encodeFunctionData(view as Parameters<typeof encodeFunctionData>[0]);
    const request = { to: view.address, data };
    return {
      call: { method: 'eth_call', params: [request, tag] },
      read: (answer) => [
        settleView(view, '/docs/contract/readContract', () => callData(answer!, request)),
      ],
    };
  }
  const calls = views.map((view): { allowFailure: boolean; callData: Hex; target: Hex } => {
    try {
      const callData = encodeFunctionData(view as Parameters<typeof encodeFunctionData>[0]);
      return { allowFailure: true, callData, target: view.address };
    } catch {
      // viem's multicall sends `0x` for a view that does not encode and fails it as zero data.
      return { allowFailure: true, callData: '0x', target: view.address };
    }
  });
  const aggregate = encodeFunctionData({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [calls],
  });
  const data = encodeDeployData({
    abi: DEPLOYLESS,
    bytecode: deploylessCallViaBytecodeBytecode,
    args: [code, aggregate],
  });
  const request = { data };
  return {
    call: { method: 'eth_call', params: [request, tag] },
    read(answer) {
      const whole = settleView(
        { abi: multicall3Abi, functionName: 'aggregate3', args: [calls] } as unknown as ChainRead,
        '/docs/contract/readContract',
        () => callData(answer!, request),
      );
      if (whole.status === 'rejected') return views.map(() => whole);
      const results = whole.value as readonly { success: boolean; returnData: Hex }[];
      return views.map((view, i) =>
        settleView(view, '/docs/contract/multicall', () => {
          if (calls[i].callData === '0x') throw new AbiDecodingZeroDataError();
          if (!results[i].success) throw new RawContractError({ data: results[i].returnData });
          return results[i].returnData;
        }),
      );
    },
  };
}

/** An eth_call's data as viem's `call` returns it, or the error it throws. */
function callData(answer: Settled<unknown>, request: { to?: Hex; data: Hex }): Hex {
  if (answer.status === 'rejected')
    throw getCallError(answer.reason as BaseError, request) as Error;
  return answer.value as Hex;
}

/** A view's decoded result, or the error viem's readContract/multicall would give for it. */
function settleView(view: ChainRead, docsPath: string, data: () => Hex): Settled<unknown> {
  const { abi, address, args, functionName } = view;
  try {
    return {
      status: 'fulfilled',
      value: decodeFunctionResult({ abi, args, functionName, data: data() }),
    };
  } catch (error) {
    return {
      status: 'rejected',
      reason: getContractError(error as never, { abi, address, args, docsPath, functionName }),
    };
  }
}
