import { Logger } from '@nestjs/common';
import { HttpRequestError } from 'viem';
import type { ChainInfo, ChainsConfig } from './chains.config';
import { loadExternalConfig } from '../../config/external.config';
import { UpstreamBounds } from '../../outbound/http/upstream-bounds';
import { ChainRpc } from './chain-rpc';

const CHAIN = { chainId: 43113, name: 'Fuji' } as ChainInfo;
const CONFIG: ChainsConfig = {
  chains: new Map(),
  developmentOnly: [],
  timeoutMs: 1000,
  maxBatchCalls: 40,
};

describe('ChainRpc failure logs', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('writes one line for 50 identical node failures, without the node URL', () => {
    const rpc = new ChainRpc(CONFIG, new UpstreamBounds(loadExternalConfig({})));
    const down = new HttpRequestError({ url: 'https://rpc.example/key-s3cret', details: 'down' });
    for (let i = 0; i < 50; i++)
      expect(rpc.failure(CHAIN, 'getBalance', down).getStatus()).toBe(500);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/^getBalance on chain 43113 failed \(unreachable\)/);
    expect(warn.mock.calls[0][0]).not.toContain('s3cret');
  });

  it('escapes what the node said, which may quote the request', () => {
    const rpc = new ChainRpc(CONFIG, new UpstreamBounds(loadExternalConfig({})));
    rpc.failure(CHAIN, 'estimateGas', new Error('bad input\nFAKE LOG LINE'));
    expect(warn.mock.calls[0][0]).not.toContain('\n');
  });
});

describe('ChainRpc failure texts', () => {
  it('reads only the start of a huge node text, so scrubbing URLs stays linear', () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const rpc = new ChainRpc(CONFIG, new UpstreamBounds(loadExternalConfig({})));
    const quoted = `${'a.'.repeat(500_000)} https://rpc.example/key-s3cret`;
    const failure = rpc.failure(CHAIN, 'call', new Error(quoted));
    expect(failure.getStatus()).toBe(500);
    jest.restoreAllMocks();
  });
});
