import { readFileSync } from 'node:fs';
import type { LocalChain } from './chain-types';
import { writeChainFile, writeNodeDownChainFile } from './chain-file';

const read = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('writeNodeDownChainFile', () => {
  const fuji = {
    name: 'Local chain 43113',
    rpcUrl: 'http://127.0.0.1:40123',
    tokens: { USDC: { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 } },
    nftCollection: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  };
  const other = { rpcUrl: 'https://node.example.com' };

  it("keeps the chain's entry whole, its node on a closed port, and every other entry", () => {
    const chainFile = writeChainFile({ 43113: fuji, 1: other });
    const down = writeNodeDownChainFile({ chainFile, chain: { chainId: 43113 } as LocalChain });
    expect(down).not.toBe(chainFile);
    expect(read(down)).toEqual({
      chains: { 43113: { ...fuji, rpcUrl: 'http://127.0.0.1:1' }, 1: other },
    });
    // The test chain's own file is left as it was: the spec's app still runs on it.
    expect(read(chainFile)).toEqual({ chains: { 43113: fuji, 1: other } });
  });
});
