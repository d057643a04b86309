import { HttpRequestError, RpcRequestError } from 'viem';
import { buildRequest, getHttpRpcClient, type HttpRpcClient } from 'viem/utils';
import type { RpcFetch } from '../../outbound/http/upstream-bounds';
import { checkParsedAnswers, named, RpcAnswerError } from './rpc-answers';

/** One JSON-RPC call of a batch, as a node reads it (params already in RPC form). */
export interface RpcCall {
  method: string;
  params?: readonly unknown[];
}

interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** The most calls one HTTP request carries (viem's http transport default batchSize). */
export const MAX_BATCH_CALLS = 1_000;

type Settled = PromiseSettledResult<unknown>;

interface Waiting {
  calls: readonly RpcCall[];
  resolve(results: Settled[]): void;
  reject(reason: unknown): void;
}

/**
 * Sends each caller's calls in ONE JSON-RPC batch, through viem's own HTTP JSON-RPC client
 * (`getHttpRpcClient`, what its `http` transport sends with) and the fetch the chain's viem client
 * uses (bounds, answer checks, spans). What it saves over N client actions batched by the
 * transport is the per-call pipeline: a request, retry and dedupe wrapper and a batch scheduler
 * entry per call, on a path that runs on every checked answer.
 *
 * Like the transport's batching (wait 0), the calls of every caller of one turn of the event loop
 * share one HTTP request (a request to the node costs far more than a call in it): each caller's
 * calls stay together and in its order, so a node that answers a batch in order answers them so
 * (check-batch.ts). At most MAX_BATCH_CALLS calls per request; a caller's calls are never split.
 *
 * A call the node refused is rejected with the error viem's client would have thrown for it (its
 * RpcRequestError mapped by viem's `buildRequest`), so readers of the error chain
 * (rpcFailureKind, revertDataOf) see what they saw before; a failed HTTP request rejects every
 * caller it carried, as the transport's batch did.
 */
export class RpcBatch {
  private readonly http: HttpRpcClient;
  private waiting: Waiting[] = [];
  private waitingCalls = 0;

  constructor(
    private readonly url: string,
    fetchFn: RpcFetch,
    timeoutMs: number,
  ) {
    this.http = getHttpRpcClient(url, { fetchFn, timeout: timeoutMs });
  }

  /** Each call's result, in the order given: `fulfilled` with the raw RPC result, or `rejected`. */
  send(calls: readonly RpcCall[]): Promise<Settled[]> {
    return new Promise((resolve, reject) => {
      if (this.waitingCalls > 0 && this.waitingCalls + calls.length > MAX_BATCH_CALLS) {
        this.flush();
      }
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ calls, resolve, reject });
      this.waitingCalls += calls.length;
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    this.waiting = [];
    this.waitingCalls = 0;
    const body = waiting
      .flatMap(({ calls }) => calls)
      .map(({ method, params }, id) => ({
        id,
        method,
        params,
      }));
    this.http.request({ body }).then(
      (answers) => {
        let list: RpcAnswer[];
        try {
          list = this.checked(body, answers);
        } catch (error) {
          for (const one of waiting) one.reject(error);
          return;
        }
        const byId = new Map(list.map((answer) => [answer.id, answer]));
        // checked() proved one answer per id sent; a batch refused whole is answered by one
        // error, which viem repeats for every call.
        const answer = (id: number): RpcAnswer | undefined => byId.get(id) ?? list[id];
        let first = 0;
        for (const one of waiting) {
          const mine = body.slice(first, first + one.calls.length);
          first += one.calls.length;
          this.results(mine, answer).then(one.resolve, one.reject);
        }
      },
      (error: unknown) => {
        const refused = this.unreadable(body, error) ?? error;
        for (const one of waiting) one.reject(refused);
      },
    );
  }

  /**
   * The answers' shapes, checked on the value viem parsed (checkParsedAnswers), so that a node's
   * answer is parsed once and never copied; the batch's fetch is the bounded one without
   * checkedFetch. A wrong shape fails as checkedFetch's did: viem's HttpRequestError caused by an
   * RpcAnswerError (rpcFailureKind: malformed).
   */
  private checked(body: readonly (RpcCall & { id: number })[], data: unknown): RpcAnswer[] {
    const list = data as RpcAnswer[];
    // viem answers a batch refused with one error object by that object for every call.
    const whole =
      list.length > 0 &&
      list.every((one) => one === list[0]) &&
      list[0]?.error !== undefined &&
      (list.length > 1 || list[0].id !== body[0].id);
    try {
      checkParsedAnswers(body, true, whole ? list[0] : list);
    } catch (error) {
      throw new HttpRequestError({ body: body as never, cause: error as Error, url: this.url });
    }
    return list;
  }

  /**
   * A successful HTTP answer viem could not read as a batch (not JSON, or not one answer per
   * call) is an RpcAnswerError, as checkedFetch made it before viem read it.
   */
  private unreadable(
    body: readonly (RpcCall & { id: number })[],
    error: unknown,
  ): HttpRequestError | undefined {
    if (!(error instanceof HttpRequestError) || error.status !== undefined) return undefined;
    const cause: unknown = error.cause;
    const notBatch = cause instanceof Error && /^Expected \d+ responses/.test(cause.message);
    if (!(cause instanceof SyntaxError) && !notBatch) return undefined;
    const malformed = new RpcAnswerError(named(body));
    return new HttpRequestError({ body: body as never, cause: malformed, url: this.url });
  }

  private async results(
    body: readonly (RpcCall & { id: number })[],
    answer: (id: number) => RpcAnswer | undefined,
  ): Promise<Settled[]> {
    const results: Settled[] = [];
    for (const call of body) {
      const { error, result } = answer(call.id) ?? {};
      results.push(
        error
          ? { status: 'rejected', reason: await this.clientError(call, error) }
          : { status: 'fulfilled', value: result },
      );
    }
    return results;
  }

  /** What viem's client throws for a call the node answered with `error` (only on failures). */
  private clientError(call: RpcCall, error: NonNullable<RpcAnswer['error']>): Promise<unknown> {
    const body = { method: call.method, params: call.params };
    const request = buildRequest(
      (): Promise<never> => Promise.reject(new RpcRequestError({ body, error, url: this.url })),
      { retryCount: 0 },
    );
    return request(body as never).then(
      () => undefined,
      (reason: unknown) => reason,
    );
  }
}
