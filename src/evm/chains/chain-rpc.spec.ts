import {
  ContractFunctionRevertedError,
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
import { ChainRpc, MAX_REASON_CHARS, reasonText, rpcFailureKind } from './chain-rpc';
import { ActionException } from '../../contract/action.exception';
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

describe('reasonText (every revert reason a client is shown)', () => {
  it('keeps a short reason as the contract said it', () => {
    expect(reasonText('Sale: not started')).toBe('Sale: not started');
  });

  it('cuts a megabyte to MAX_REASON_CHARS, the last an ellipsis', () => {
    const cut = reasonText('x'.repeat(1_000_000));
    expect(cut).toHaveLength(MAX_REASON_CHARS);
    expect(cut.endsWith('x…')).toBe(true);
  });

  it('turns control, line-separator and bidi characters into single spaces', () => {
    expect(reasonText('a\u0000\u001b[31mb\r\nFAKE\u0085c\u2028d\u202ee\u007f')).toBe(
      'a [31mb FAKE c d e',
    );
  });

  it('replaces URLs, which may carry keys', () => {
    expect(reasonText('see https://rpc.example/v3/s3cret?key=1 now')).toBe('see <url> now');
    expect(reasonText('at\u0000wss://node.example/s3cret')).toBe('at <url>');
  });

  it('never cuts a surrogate pair in two', () => {
    const cut = reasonText(`${'a'.repeat(MAX_REASON_CHARS - 2)}😀😀`);
    expect(cut).toBe(`${'a'.repeat(MAX_REASON_CHARS - 2)}…`);
  });
});

describe('ChainRpc.read on a revert', () => {
  const chains = loadChainsConfig({});
  const rpc = new ChainRpc(chains, new UpstreamBounds(loadExternalConfig({})));
  const fuji = chains.chains.get(43113)!;

  it("is a 400 quoting the contract's reason cut by reasonText", async () => {
    const reverted = new ContractFunctionRevertedError({
      abi: [],
      functionName: 'f',
      message: `Sale:\n${'x'.repeat(1_000_000)} https://rpc.example/s3cret`,
    });
    const thrown = await rpc
      .read(fuji, 'test', () => Promise.reject(reverted))
      .catch((error: unknown) => error as ActionException);
    expect(thrown.getStatus()).toBe(400);
    expect(thrown.error).toMatch(/^The transaction would fail on Avalanche Fuji: Sale: x+…$/);
    expect(thrown.error.length).toBeLessThanOrEqual(
      'The transaction would fail on Avalanche Fuji: '.length + MAX_REASON_CHARS,
    );
  });
});
