import { type Hex, numberToHex } from 'viem';
import { startTestChain, type TestChain } from '../../testing';
import { RpcAnswerError } from '../chains/rpc-answers';
import { headProbe, readHeadProbe } from './head-probe';

/** The probe's eth_call run by the local chain (Hardhat's EDR), as a batch sends it. */
async function probe(
  testChain: TestChain,
  tag: string,
  account = testChain.users[0].address,
): Promise<ReturnType<typeof readHeadProbe>> {
  const { method, params } = headProbe(account, tag);
  const data: Hex = await testChain.chain.publicClient.request({ method, params } as never);
  return readHeadProbe(data);
}

describe('the head probe: block.number and a balance in one eth_call', () => {
  let testChain: TestChain;

  beforeAll(async () => {
    testChain = await startTestChain();
  }, 60_000);
  afterAll(() => testChain?.stop());

  it('at latest: the head eth_blockNumber gives and the balance eth_getBalance gives', async () => {
    const { publicClient } = testChain.chain;
    const address = testChain.users[1].address;
    const read = await probe(testChain, 'latest', address);
    expect(read.block).toBe(await publicClient.getBlockNumber());
    expect(read.balance).toBe(await publicClient.getBalance({ address }));
  });

  it('pinned to an older block: that block, and the balance there', async () => {
    const { publicClient } = testChain.chain;
    const [sender, receiver] = [testChain.users[2], testChain.users[3]];
    const before = await publicClient.getBlockNumber();
    const held = await publicClient.getBalance({ address: receiver.address });
    const hash = await testChain.chain
      .wallet(sender)
      .sendTransaction({ to: receiver.address, value: 12345n });
    await publicClient.waitForTransactionReceipt({ hash });
    expect(await probe(testChain, numberToHex(before), receiver.address)).toEqual({
      block: before,
      balance: held,
      codeSize: 0n,
    });
    expect((await probe(testChain, 'latest', receiver.address)).balance).toBe(held + 12345n);
  });

  it("the size of the account's code: 0 for a key's account, more for a contract", async () => {
    expect((await probe(testChain, 'latest')).codeSize).toBe(0n);
    const contract = testChain.fixture.usdc;
    const code = await testChain.chain.publicClient.getCode({ address: contract });
    expect((await probe(testChain, 'latest', contract)).codeSize).toBe(
      BigInt((code!.length - 2) / 2),
    );
  });

  it.each([['0x'], ['0x1234'], [`0x${'0'.repeat(128)}`], [`0x${'0'.repeat(194)}`], ['zz'], [null]])(
    'an answer of %j is the node answering wrongly (RpcAnswerError)',
    (answer) => {
      expect(() => readHeadProbe(answer as Hex)).toThrow(RpcAnswerError);
    },
  );
});
