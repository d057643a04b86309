import { createPublicClient, http, type PublicClient } from 'viem';
import type { Lane } from '../../outbound/http/host-policy';
import type { UpstreamBounds } from '../../outbound/http/upstream-bounds';
import type { ChainInfo } from './chains.config';
import { checkedFetch } from './rpc-answers';

/**
 * Each chain's clients on a bulkhead of their own (a Lane), made on first use and kept: calls a
 * stranger can make slow (sign-in's contract-wallet checks) never take the slots of the
 * simulations and reads. Not batched: each call is one request, so one slow call never holds
 * others in its batch. Bounded by the same timeout, never retried, answers checked as ChainRpc's.
 */
export class LaneClients {
  private readonly clients = new Map<string, PublicClient>();

  constructor(
    private readonly bounds: UpstreamBounds,
    private readonly timeoutMs: number,
  ) {}

  client(chain: ChainInfo, lane: Lane): PublicClient {
    const key = `${lane.name} ${chain.chainId}`;
    let client = this.clients.get(key);
    if (!client) {
      // Its own metrics label: the lane's calls are told apart from the chain's others.
      const upstream = `rpc_${chain.chainId}_${lane.name}`;
      client = createPublicClient({
        transport: http(chain.rpcUrl, {
          timeout: this.timeoutMs,
          retryCount: 0,
          fetchFn: checkedFetch(this.bounds.fetchFn(this.timeoutMs, upstream, lane)),
        }),
      });
      this.clients.set(key, client);
    }
    return client;
  }
}
