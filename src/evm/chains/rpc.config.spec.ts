import { loadRpcConfig } from './rpc.config';

describe('loadRpcConfig', () => {
  it('caps a request at 40 calls unless told', () => {
    expect(loadRpcConfig({})).toEqual({ maxBatchCalls: 40 });
    expect(loadRpcConfig({ RPC_MAX_BATCH_CALLS: '100' })).toEqual({ maxBatchCalls: 100 });
  });

  it.each(['0', '1001', 'many'])('refuses RPC_MAX_BATCH_CALLS=%s naming it', (value) => {
    expect(() => loadRpcConfig({ RPC_MAX_BATCH_CALLS: value })).toThrow(/RPC_MAX_BATCH_CALLS/);
  });
});
