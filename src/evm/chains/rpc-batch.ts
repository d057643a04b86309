import { HttpRequestError, RpcRequestError } from 'viem';
import { buildRequest, stringify } from 'viem/utils';
import type { PostAnswer, RpcPost } from '../../outbound/http/upstream-post';
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

type Sent = RpcCall & { id: number };

/** The request as viem's errors take it (they print it in their details). */
const asBody = (body: readonly Sent[]): Record<string, unknown>[] =>
  body as unknown as Record<string, unknown>[];

/** The most calls one HTTP request carries unless told (RPC_MAX_BATCH_CALLS's default). */
export const MAX_BATCH_CALLS = 40;

type Settled = PromiseSettledResult<unknown>;

interface Waiting {
  calls: readonly RpcCall[];
  resolve(results: Settled[]): void;
  reject(reason: unknown): void;
}

/**
 * Sends each caller's calls in ONE JSON-RPC batch, through the node host's bounds
 * (UpstreamBounds.rpcPost: concurrency, queue, circuit, timeout, metrics, spans) on a keep-alive
 * connection, and reads the answer as viem's HTTP JSON-RPC client (`getHttpRpcClient`, what its
 * `http` transport sends with) does, failing with the errors it throws. What it saves over N
 * client actions batched by the transport is the per-call pipeline (a request, retry and dedupe
 * wrapper and a batch scheduler entry per call), and over viem's client its fetch: on the
 * bench's checked send-token, fetch's WHATWG objects cost as much server CPU as the rest of the
 * check (docs/performance.md). This path runs on every checked answer.
 *
 * Like the transport's batching (wait 0), the calls of every caller of one turn of the event loop
 * share one HTTP request (a request to the node costs far more than a call in it): each caller's
 * calls stay together and in its order, so a node that answers a batch in order answers them so
 * (check-batch.ts). At most `maxCalls` (RPC_MAX_BATCH_CALLS) calls per request; a caller's calls
 * are never split (a caller sending more than `maxCalls` at once sends them in one request).
 *
 * A call the node refused is rejected with the error viem's client would have thrown for it (its
 * RpcRequestError mapped by viem's `buildRequest`), so readers of the error chain
 * (rpcFailureKind, revertDataOf) see what they saw before; a failed HTTP request rejects every
 * caller it carried, as the transport's batch did.
 */
export class RpcBatch {
  private waiting: Waiting[] = [];
  private waitingCalls = 0;

  constructor(
    /** Named in the errors, as viem's client names it (ChainRpc keeps it out of logs). */
    private readonly url: string,
    private readonly post: RpcPost,
    private readonly maxCalls = MAX_BATCH_CALLS,
  ) {}

  /** Each call's result, in the order given: `fulfilled` with the raw RPC result, or `rejected`. */
  send(calls: readonly RpcCall[]): Promise<Settled[]> {
    return new Promise((resolve, reject) => {
      if (this.waitingCalls > 0 && this.waitingCalls + calls.length > this.maxCalls) {
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
    const body: Sent[] = [];
    for (const { calls } of waiting) {
      for (const { method, params } of calls) body.push({ id: body.length, method, params });
    }
    let text: string;
    try {
      text = stringify(body.map((call) => ({ jsonrpc: '2.0', ...call })));
    } catch (error) {
      for (const one of waiting) one.reject(this.httpError(body, error));
      return;
    }
    this.post(text).then(
      (answer) => {
        let answers: (id: number) => RpcAnswer | undefined;
        try {
          answers = this.read(body, answer);
        } catch (error) {
          for (const one of waiting) one.reject(error);
          return;
        }
        let first = 0;
        for (const one of waiting) {
          const mine = body.slice(first, first + one.calls.length);
          first += one.calls.length;
          this.results(mine, answers).then(one.resolve, one.reject);
        }
      },
      (error: unknown) => {
        for (const one of waiting) one.reject(this.httpError(body, error));
      },
    );
  }

  /**
   * The node's answer as viem's client reads it: JSON (an answer that is not, or a JSON one that
   * does not parse, is malformed), a failed status its RpcRequestError or HttpRequestError, a
   * batch refused whole by one JSON-RPC error (bare, or alone in an array as geth sends it) that
   * error for every call. The answers' shapes are then checked (checkParsedAnswers) on the value
   * parsed once, never copied: a wrong shape is viem's HttpRequestError caused by an
   * RpcAnswerError (rpcFailureKind: malformed). Returns each call's answer by id.
   */
  private read(body: readonly Sent[], answer: PostAnswer): (id: number) => RpcAnswer | undefined {
    // viem: a JSON answer that does not parse fails the request, a text one only when a 2xx.
    const json = answer.contentType?.startsWith('application/json') === true;
    let data: unknown;
    try {
      data = JSON.parse(json ? answer.text : answer.text || '{}');
    } catch {
      if (answer.ok || json) throw this.malformed(body);
      data = { error: answer.text };
    }
    const list = Array.isArray(data) ? (data as RpcAnswer[]) : undefined;
    const error = list?.length === 1 ? list[0] : (data as RpcAnswer | undefined);
    if (!answer.ok) {
      if (isRpcError(error)) {
        throw new RpcRequestError({
          body: asBody(body),
          error: error.error,
          status: answer.status,
          url: this.url,
        });
      }
      const details = stringify((data as RpcAnswer | null)?.error) || answer.statusText;
      throw new HttpRequestError({
        body: asBody(body),
        details,
        status: answer.status,
        url: this.url,
      });
    }
    // One error for the whole batch: viem repeats it for every call.
    const whole =
      list === undefined || list.length < body.length
        ? isRpcError(error)
          ? error
          : undefined
        : list.length === 1 && error?.error !== undefined && error.id !== body[0].id
          ? error
          : undefined;
    if (whole === undefined && (list === undefined || list.length < body.length)) {
      throw this.malformed(body);
    }
    try {
      checkParsedAnswers(body, true, whole ?? list);
    } catch (cause) {
      throw new HttpRequestError({ body: asBody(body), cause: cause as Error, url: this.url });
    }
    if (whole) return () => whole;
    const byId = new Map(list!.map((one) => [one.id, one]));
    return (id) => byId.get(id);
  }

  /** An answer viem could not read as a batch: an RpcAnswerError, as checkedFetch made it. */
  private malformed(body: readonly Sent[]): HttpRequestError {
    const cause = new RpcAnswerError(named(body));
    return new HttpRequestError({ body: asBody(body), cause, url: this.url });
  }

  /** A request that failed (bounds refused it, timed out, network): viem's HttpRequestError. */
  private httpError(body: readonly Sent[], cause: unknown): HttpRequestError {
    return new HttpRequestError({ body: asBody(body), cause: cause as Error, url: this.url });
  }

  private async results(
    body: readonly Sent[],
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

/** A JSON-RPC error object, as viem's client tells one (`isRpcError`). */
function isRpcError(data: unknown): data is Required<Pick<RpcAnswer, 'error'>> & RpcAnswer {
  const error = (data as RpcAnswer | undefined)?.error;
  return typeof error?.code === 'number' && typeof error.message === 'string';
}
