import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallExecutionError } from 'viem';
import { getCallError } from 'viem/utils';
import { loadExternalConfig } from '../../config/external.config';
import { UpstreamBounds } from '../../outbound/http/upstream-bounds';
import { revertDataOf } from '../transaction/revert-reason';
import { rpcFailureKind } from './chain-rpc';
import { MAX_BATCH_CALLS, RpcBatch } from './rpc-batch';

interface Sent {
  id: number;
  method: string;
  params?: unknown[];
}

/** Hardhat's answer to a reverting eth_call: a generic error whose text and data tell. */
const REVERT = {
  code: -32603,
  message: 'Error: VM Exception while processing transaction: reverted with reason string',
  data: { message: 'reverted', data: '0x08c379a0' },
};

/** A node on loopback that answers each call of a batch in order; `status` fails the request. */
async function node(): Promise<{
  server: Server;
  url: string;
  bodies: Sent[][];
  status: number;
  reply?: (calls: Sent[]) => string;
}> {
  const state: { bodies: Sent[][]; status: number; reply?: (calls: Sent[]) => string } = {
    bodies: [],
    status: 200,
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const calls = JSON.parse(text) as Sent[];
      state.bodies.push(calls);
      const answers = calls.map(({ id, method }) =>
        method === 'eth_call'
          ? { jsonrpc: '2.0', id, error: REVERT }
          : { jsonrpc: '2.0', id, result: `0x${(id + 1).toString(16)}` },
      );
      res.writeHead(state.status, { 'content-type': 'application/json' });
      res.end(state.reply ? state.reply(calls) : JSON.stringify(answers.reverse()));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, { server, url });
}

describe('RpcBatch', () => {
  let rig: Awaited<ReturnType<typeof node>>;
  let batch: RpcBatch;
  let bounds: UpstreamBounds;
  beforeEach(async () => {
    rig = await node();
    bounds = new UpstreamBounds(loadExternalConfig({}));
    batch = new RpcBatch(rig.url, bounds.rpcPost(rig.url, 5_000, 'rpc_43113'));
  });
  afterEach(async () => {
    await bounds.onModuleDestroy();
    rig.server.close();
  });

  it("sends the checks of one turn in one HTTP request, each one's calls together and in order", async () => {
    const first = [{ method: 'eth_blockNumber' }, { method: 'eth_chainId' }];
    const second = [{ method: 'eth_gasPrice' }, { method: 'eth_blockNumber' }];
    const [a, b] = await Promise.all([batch.send(first), batch.send(second)]);
    expect(rig.bodies.map((body) => body.map((call) => call.method))).toEqual([
      ['eth_blockNumber', 'eth_chainId', 'eth_gasPrice', 'eth_blockNumber'],
    ]);
    // Answered in reverse order: paired by id, not by position.
    expect(a).toEqual([
      { status: 'fulfilled', value: '0x1' },
      { status: 'fulfilled', value: '0x2' },
    ]);
    expect(b).toEqual([
      { status: 'fulfilled', value: '0x3' },
      { status: 'fulfilled', value: '0x4' },
    ]);
  });

  it('rejects a refused call with the error viem would give, the others answered', async () => {
    const call = { to: '0x000000000000000000000000000000000000dEaD' as const, data: '0x' as const };
    const [balance, run] = await batch.send([
      { method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001'] },
      { method: 'eth_call', params: [call, 'latest'] },
    ]);
    expect(balance).toEqual({ status: 'fulfilled', value: '0x1' });
    expect(run.status).toBe('rejected');
    const reason = (run as PromiseRejectedResult).reason as Error;
    expect(rpcFailureKind(reason)).toBe('reverted');
    const wrapped = getCallError(reason as CallExecutionError, call);
    expect(wrapped).toBeInstanceOf(CallExecutionError);
    expect(revertDataOf(wrapped)).toBe('0x08c379a0');
  });

  it('rejects every check of a request the node failed', async () => {
    rig.status = 502;
    const results = await Promise.allSettled([
      batch.send([{ method: 'eth_blockNumber' }]),
      batch.send([{ method: 'eth_chainId' }]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(rpcFailureKind((results[0] as PromiseRejectedResult).reason)).toBe('unreachable');
  });

  it(`carries at most ${MAX_BATCH_CALLS} calls per request, never splitting a check`, async () => {
    const check = (n: number): { method: string }[] =>
      Array.from({ length: n }, () => ({ method: 'eth_blockNumber' }));
    await Promise.all([batch.send(check(MAX_BATCH_CALLS - 1)), batch.send(check(2))]);
    expect(rig.bodies.map((body) => body.length)).toEqual([MAX_BATCH_CALLS - 1, 2]);
  });

  it('carries at most the configured calls per request (RPC_MAX_BATCH_CALLS)', async () => {
    const small = new RpcBatch(rig.url, bounds.rpcPost(rig.url, 5_000, 'rpc_43113'), 3);
    const one = [{ method: 'eth_blockNumber' }];
    await Promise.all([small.send(one), small.send(one), small.send(one), small.send(one)]);
    expect(rig.bodies.map((body) => body.length)).toEqual([3, 1]);
  });

  describe("checks the answers' shape on the value viem parsed (the batch's fetch is unchecked)", () => {
    const calls = [{ method: 'eth_getBalance' }, { method: 'eth_blockNumber' }];
    const answered =
      (list: unknown[]): ((sent: Sent[]) => string) =>
      () =>
        JSON.stringify(list);

    it.each<[string, (sent: Sent[]) => string]>([
      ['not JSON', () => '{"jsonrpc":'],
      ['fewer answers than calls', (sent) => JSON.stringify([{ id: sent[0].id, result: '0x1' }])],
      [
        'an id not sent',
        answered([
          { id: 7, result: '0x1' },
          { id: 1, result: '0x1' },
        ]),
      ],
      [
        'a balance that is not hex',
        answered([
          { id: 0, result: 'zz' },
          { id: 1, result: '0x1' },
        ]),
      ],
      ['no result', answered([{ id: 0 }, { id: 1, result: '0x1' }])],
    ])('%s: every check rejected as malformed', async (_case, reply) => {
      rig.reply = reply;
      const failure = await batch.send(calls).catch((error: unknown) => error);
      expect(rpcFailureKind(failure)).toBe('malformed');
    });

    it('a batch refused with one error: each call rejected with it, its message cut', async () => {
      const error = { code: -32005, message: `limit ${'x'.repeat(5_000)}` };
      rig.reply = () => JSON.stringify({ jsonrpc: '2.0', id: null, error });
      const [balance, block] = await batch.send(calls);
      expect([balance.status, block.status]).toEqual(['rejected', 'rejected']);
      const reason = (balance as PromiseRejectedResult).reason as Error;
      expect(rpcFailureKind(reason)).not.toBe('malformed');
      expect(reason.message).toContain('limit x');
      expect(reason.message.length).toBeLessThan(3_000);
    });
  });
});
