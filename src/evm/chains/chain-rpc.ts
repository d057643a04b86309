import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  ExecutionRevertedError,
  http,
  HttpRequestError,
  type PublicClient,
  RpcRequestError,
  TimeoutError,
} from 'viem';
import { type ChainInfo, CHAINS_CONFIG, type ChainsConfig } from './chains.config';
import { ActionException } from '../../contract/action.exception';
import type { Lane } from '../../outbound/http/host-policy';
import { UpstreamBounds } from '../../outbound/http/upstream-bounds';
import { findRefusal } from '../../outbound/http/upstream-refusal.exception';
import { UpstreamError } from '../../outbound/http/upstream.error';
import { LaneClients } from './lane-clients';
import { checkedFetch, RpcAnswerError } from './rpc-answers';
import { RpcBatch } from './rpc-batch';
import { limitLog } from '../../telemetry/logging/log-limiter';
import { logText } from '../../telemetry/logging/log-text';

/**
 * Why a call to a node failed, read from viem's error chain: `reverted` is the contract refusing (a
 * 400 to the user), the others the node failing (a 500 or 503), so callers decide on the kind,
 * never on viem's text.
 */
export type RpcFailureKind = 'timeout' | 'unreachable' | 'rejected' | 'reverted' | 'malformed';

const PHRASES: Record<Exclude<RpcFailureKind, 'reverted'>, string> = {
  timeout: 'did not answer in time',
  unreachable: 'could not be reached',
  rejected: 'answered with an error',
  malformed: 'sent an answer of the wrong shape',
};

/**
 * URLs may carry API keys: nothing that leaves this file keeps one. The text is cut first: a
 * node's text can quote a request, and the pattern rescans `a.a.a…` from every position.
 */
const withoutUrls = (text: string): string =>
  text.slice(0, 2_000).replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, '<url>');

/** The most of a contract's or node's own words a client is shown. */
export const MAX_REASON_CHARS = 200;

/** C0 and C1 controls, DEL, line separators, bidi marks and overrides: none belongs in a reason. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]+/g;

/**
 * A contract's or node's words fit for a client, the one cut of every revert shown (ChainRpc.read
 * and the simulation): controls become spaces, URLs `<url>`, at most `max` characters are kept
 * (the last an `…` when cut); only the first 2,000 are read, whatever a node sends.
 */
export function reasonText(text: string, max = MAX_REASON_CHARS): string {
  const plain = withoutUrls(text.slice(0, 2_000).replace(CONTROLS, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= max) return plain;
  // Never half a surrogate pair: it would render as a replacement character.
  const end = /[\ud800-\udbff]/.test(plain[max - 2]) ? max - 2 : max - 1;
  return `${plain.slice(0, end)}…`;
}

/** What went wrong in a call to a node, read through viem's error chain. */
export function rpcFailureKind(error: unknown): RpcFailureKind {
  if (!(error instanceof BaseError)) return 'rejected';
  if (error.walk((e) => e instanceof TimeoutError || isUpstreamTimeout(e))) return 'timeout';
  if (error.walk((e) => e instanceof RpcAnswerError)) return 'malformed';
  const reverted = error.walk(
    (e) =>
      e instanceof ContractFunctionRevertedError ||
      e instanceof ContractFunctionZeroDataError ||
      e instanceof ExecutionRevertedError ||
      nodeSaysReverted(e),
  );
  if (reverted) return 'reverted';
  if (error.walk((e) => e instanceof HttpRequestError)) return 'unreachable';
  return 'rejected';
}

/** The per-host deadline can fire a hair before viem's own timer. */
const isUpstreamTimeout = (e: unknown): boolean =>
  e instanceof UpstreamError && e.kind === 'timeout';

/** Some nodes (Hardhat's) answer a revert as a generic JSON-RPC error that only its text tells. */
const nodeSaysReverted = (e: unknown): e is RpcRequestError =>
  e instanceof RpcRequestError && /\brevert/i.test(e.details);

/** The contract's own words for a revert, when it gave any, cut for a client. */
function revertReason(error: unknown): string {
  if (!(error instanceof BaseError)) return 'reverted';
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  const execution = error.walk((e) => e instanceof ExecutionRevertedError);
  const node = error.walk(nodeSaysReverted);
  const text =
    reverted instanceof ContractFunctionRevertedError && reverted.reason
      ? reverted.reason
      : execution instanceof BaseError
        ? execution.shortMessage
        : node instanceof RpcRequestError
          ? node.details.replace(/^Error: /, '')
          : 'reverted';
  return reasonText(text) || 'reverted';
}

/**
 * viem clients per configured chain: JSON-RPC calls made in the same tick travel as one batch,
 * each bounded by EXTERNAL_TIMEOUT_MS (wait for a slot included) and never retried (the user is
 * waiting). Requests go through the node host's bounds (UpstreamBounds: concurrency, queue,
 * circuit) and never follow a redirect. Failures become errors that name the chain, never the
 * node's URL.
 */
@Injectable()
export class ChainRpc {
  private readonly logger = new Logger(ChainRpc.name);
  private readonly clients = new Map<number, PublicClient>();
  private readonly batches = new Map<number, RpcBatch>();
  private readonly lanes: LaneClients;

  constructor(
    @Inject(CHAINS_CONFIG) private readonly config: ChainsConfig,
    private readonly bounds: UpstreamBounds,
  ) {
    this.lanes = new LaneClients(bounds, config.timeoutMs);
  }

  /**
   * The chain's viem client, made on first use and kept: batched, bounded and never retried (see
   * the class). Prefer `read`, which turns failures into the errors every action shows.
   */
  client(chain: ChainInfo): PublicClient {
    let client = this.clients.get(chain.chainId);
    if (!client) {
      client = createPublicClient({
        transport: http(chain.rpcUrl, {
          batch: { wait: 0, batchSize: this.config.maxBatchCalls },
          timeout: this.config.timeoutMs,
          retryCount: 0,
          fetchFn: this.fetchFn(chain),
        }),
      });
      this.clients.set(chain.chainId, client);
    }
    return client;
  }

  /** The chain's client on a bulkhead of its own (LaneClients). */
  laneClient(chain: ChainInfo, lane: Lane): PublicClient {
    return this.lanes.client(chain, lane);
  }

  /** RPC_MAX_BATCH_CALLS: the most calls a request carries, for callers that page their own. */
  get maxBatchCalls(): number {
    return this.config.maxBatchCalls;
  }

  /** The chain's sender of one-request batches (RpcBatch), through the same bounds and checks. */
  batch(chain: ChainInfo): RpcBatch {
    let batch = this.batches.get(chain.chainId);
    if (!batch) {
      // Not fetch: RpcBatch posts on a keep-alive pool and checks the answers it parsed (once).
      const post = this.bounds.rpcPost(chain.rpcUrl, this.config.timeoutMs, `rpc_${chain.chainId}`);
      batch = new RpcBatch(chain.rpcUrl, post, this.config.maxBatchCalls);
      this.batches.set(chain.chainId, batch);
    }
    return batch;
  }

  /**
   * A sender of the chain's own, shared with no other caller: the chain follower's pages of a
   * large block never ride in (nor, over the answer cap, fail) a request carrying users' calls.
   */
  ownBatch(chain: ChainInfo): RpcBatch {
    const post = this.bounds.rpcPost(chain.rpcUrl, this.config.timeoutMs, `rpc_${chain.chainId}`);
    return new RpcBatch(chain.rpcUrl, post, this.config.maxBatchCalls);
  }

  private fetchFn(chain: ChainInfo): ReturnType<typeof checkedFetch> {
    return checkedFetch(this.bounds.fetchFn(this.config.timeoutMs, `rpc_${chain.chainId}`));
  }

  /**
   * Runs calls against a chain (on `lane`'s bulkhead when given): a revert is a 400 (the
   * transaction would fail), the rest 500s.
   */
  async read<T>(
    chain: ChainInfo,
    what: string,
    run: (client: PublicClient) => Promise<T>,
    lane?: Lane,
  ): Promise<T> {
    try {
      return await run(lane ? this.laneClient(chain, lane) : this.client(chain));
    } catch (error) {
      if (error instanceof ActionException) throw error;
      if (rpcFailureKind(error) === 'reverted') {
        throw new ActionException(
          HttpStatus.BAD_REQUEST,
          `The transaction would fail on ${chain.name}: ${revertReason(error)}`,
          { code: 'TRANSACTION_WOULD_FAIL', data: { code: 'TRANSACTION_WOULD_FAIL' } },
        );
      }
      throw this.failure(chain, what, error);
    }
  }

  /**
   * A 500 for a node that failed us (a 503 where the caller says the answer waits on the node,
   * as a transaction's simulation does); the log says what was asked and how it failed. A call
   * the bounds refused (host saturated or its circuit open) stays the 503 it is.
   */
  failure(
    chain: ChainInfo,
    what: string,
    error: unknown,
    status: HttpStatus = HttpStatus.INTERNAL_SERVER_ERROR,
  ): ActionException {
    const refusal = findRefusal(error);
    if (refusal) return refusal;
    const kind = rpcFailureKind(error);
    const phrase = kind === 'reverted' ? PHRASES.rejected : PHRASES[kind];
    const cause =
      error instanceof BaseError ? `${error.name}: ${error.shortMessage}` : String(error);
    limitLog(this.logger).warn(
      `${what} ${chain.chainId} ${kind}`,
      `${what} on chain ${chain.chainId} failed (${kind}): ${logText(withoutUrls(cause))}`,
    );
    return new ActionException(
      status,
      `The RPC node of ${chain.name} (chain ${chain.chainId}) ${phrase}`,
      {
        message: 'The blockchain node is not answering, please try again later',
        code: 'RPC_ERROR',
        // Data mode carries codes in `data.code` (the envelope has no `code` of its own).
        data: { code: 'RPC_ERROR' },
      },
    );
  }
}
