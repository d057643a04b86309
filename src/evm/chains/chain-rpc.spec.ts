import {
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  HttpRequestError,
  InternalRpcError,
  RpcRequestError,
  TimeoutError,
} from 'viem';
import { loadChainsConfig } from './chains.config';
import { loadExternalConfig } from '../../config/external.config';
import { UpstreamBounds } from '../../outbound/http/upstream-bounds';
import { UpstreamError } from '../../outbound/http/upstream.error';
import { UpstreamRefusal } from '../../outbound/http/upstream-refusal.exception';
import { ChainRpc, rpcFailureKind } from './chain-rpc';
import { RpcAnswerError } from './rpc-answers';

const URL = 'http://127.0.0.1:8545';
const rpcError = (message: string): RpcRequestError =>
  new RpcRequestError({ body: {}, url: URL, error: { code: -32603, message } });

describe('rpcFailureKind', () => {
  it.each([
    ['a timeout', new TimeoutError({ body: {}, url: URL }), 'timeout'],
    [
      'a refused connection',
      new HttpRequestError({ url: URL, details: 'fetch failed' }),
      'unreachable',
    ],
    ['an HTTP error status', new HttpRequestError({ url: URL, status: 502 }), 'unreachable'],
    [
      'a revert (code 3)',
      new ExecutionRevertedError({ message: 'execution reverted: NOPE' }),
      'reverted',
    ],
    [
      'a call to no contract',
      new ContractFunctionZeroDataError({ functionName: 'getReserves' }),
      'reverted',
    ],
    [
      "Hardhat's revert as an internal error",
      new InternalRpcError(
        rpcError(
          "Error: VM Exception while processing transaction: reverted with reason string 'X'",
        ),
      ),
      'reverted',
    ],
    ['another JSON-RPC error', new InternalRpcError(rpcError('header not found')), 'rejected'],
    [
      'an answer of the wrong shape',
      new HttpRequestError({ url: URL, cause: new RpcAnswerError('eth_call') }),
      'malformed',
    ],
    [
      'the per-host deadline',
      new HttpRequestError({ url: URL, cause: new UpstreamError('timeout', 'too slow') }),
      'timeout',
    ],
    ['anything else', new Error('boom'), 'rejected'],
  ])('reads %s as %s', (_case, error, kind) => {
    expect(rpcFailureKind(error)).toBe(kind);
  });
});

describe('ChainRpc.failure', () => {
  const chains = loadChainsConfig({});
  const rpc = new ChainRpc(chains, new UpstreamBounds(loadExternalConfig({})));
  const fuji = chains.chains.get(43113)!;

  it('keeps a refusal of the bounds (wrapped by viem) as the 503 it is', () => {
    const refusal = new UpstreamRefusal('unavailable');
    const wrapped = new HttpRequestError({ url: URL, cause: refusal });
    expect(rpc.failure(fuji, 'test', wrapped)).toBe(refusal);
  });

  it('names the chain, never the URL, for an answer of the wrong shape', () => {
    const failure = rpc.failure(
      fuji,
      'test',
      new HttpRequestError({ url: URL, cause: new RpcAnswerError('eth_call') }),
    );
    expect(failure.getStatus()).toBe(500);
    expect(failure.details.code).toBe('RPC_ERROR');
    expect(failure.error).toBe(
      'The RPC node of Avalanche Fuji (chain 43113) sent an answer of the wrong shape',
    );
  });
});
