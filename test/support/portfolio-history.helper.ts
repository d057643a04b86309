import { writeFileSync } from 'node:fs';
import { compile } from 'solc';
import {
  type Address,
  createTestClient,
  type Hex,
  http,
  parseEther,
  parseUnits,
  type TestClient,
} from 'viem';
import { deployToken, ERC20_ABI } from '../../src/testing/evm/contracts';
import type { LocalChain, LocalWallet } from '../../src/testing/evm/local-chain';

/** Seconds in an hour, as a bigint to add to block timestamps. */
export const HOUR = 3_600n;
/** Seconds in a day, as a bigint to add to block timestamps. */
export const DAY = 86_400n;

interface UserBalances {
  eth: string;
  tst: string;
  /** Null while the NEW token does not exist. */
  fresh: string | null;
}

/** A block of the history: when it was mined and the user's balances after it. */
export interface HistoryBlock extends UserBalances {
  number: bigint;
  timestamp: bigint;
}

/**
 * What buildHistory made: the user, the two tokens' addresses (TST and the NEW one deployed
 * mid-history), every block with the balances after it, and the Hardhat test client that set their
 * times.
 */
export interface PortfolioHistory {
  user: Address;
  tst: Address;
  fresh: Address;
  /** Every block the history mined, oldest first; the last is the head. */
  blocks: HistoryBlock[];
  testClient: TestClient;
}

/** The last block of the history at or before `timestamp`. */
export function blockAt({ blocks }: PortfolioHistory, timestamp: bigint): HistoryBlock {
  return blocks.filter((b) => b.timestamp <= timestamp).at(-1) ?? blocks[0];
}

/**
 * Forty days of one user's balances on a fresh local chain, each block at a timestamp set in
 * advance, END being the head: ETH 10 from the start, +2.5 at END-5d; TST 1000 from the start,
 * -250 at END-20d, +150 at END-3d, -99.5 at END-12h; the NEW token deployed at END-10d, 5 of it
 * sent to the user an hour later. The user's own transactions pay no fee: every balance is exact.
 */
export async function buildHistory(chain: LocalChain): Promise<PortfolioHistory> {
  const testClient = createTestClient({
    chain: chain.chain,
    mode: 'hardhat',
    transport: http(chain.rpcUrl),
  });
  const bank = chain.wallet(chain.accounts[0]);
  const self = chain.wallet(chain.accounts[1]);
  const user = chain.accounts[1].address;
  const start = (await chain.publicClient.getBlock()).timestamp + 100n;
  const end = start + 40n * DAY;
  const blocks: HistoryBlock[] = [];
  const balances: UserBalances = { eth: '0', tst: '0', fresh: null };

  /** Runs one step in a block of its own at `timestamp`, then records the user's balances. */
  const at = async (
    timestamp: bigint,
    step: () => Promise<unknown>,
    after: Partial<UserBalances> = {},
  ): Promise<void> => {
    await testClient.setNextBlockTimestamp({ timestamp });
    await testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: 0n });
    await step();
    const block = await chain.publicClient.getBlock();
    if (block.timestamp !== timestamp) throw new Error(`Step meant for ${timestamp} mined later`);
    Object.assign(balances, after);
    blocks.push({ number: block.number, timestamp, ...balances });
  };
  const mined = async (hash: Promise<Hex>): Promise<void> => {
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== 'success') throw new Error('A history transaction reverted');
  };
  const free = { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n };
  const transfer = (from: LocalWallet, token: Address, to: Address, amount: bigint) =>
    mined(
      from.writeContract({
        address: token,
        abi: ERC20_ABI,
        functionName: 'transfer',
        args: [to, amount],
        ...free,
      }),
    );
  const pay = (value: bigint) => mined(bank.sendTransaction({ to: user, value, ...free }));
  const newToken = (symbol: string, decimals: number) =>
    deployToken(chain, bank, {
      name: symbol,
      symbol,
      decimals,
      supply: parseUnits('1000', decimals),
    });

  // The user starts with nothing: its balance is exactly what the history gives it.
  await testClient.setBalance({ address: user, value: 0n });
  const tst = await newToken('TST', 6);
  let fresh: Address = '0x';
  await at(start, () => pay(parseEther('10')), { eth: '10' });
  await at(start + HOUR, () => transfer(bank, tst, user, parseUnits('1000', 6)), { tst: '1000' });
  await at(end - 20n * DAY, () => transfer(self, tst, bank.account.address, parseUnits('250', 6)), {
    tst: '750',
  });
  await at(end - 10n * DAY, async () => void (fresh = await newToken('NEW', 18)), { fresh: '0' });
  await at(end - 10n * DAY + HOUR, () => transfer(bank, fresh, user, parseEther('5')), {
    fresh: '5',
  });
  await at(end - 5n * DAY, () => pay(parseEther('2.5')), { eth: '12.5' });
  await at(end - 3n * DAY, () => transfer(bank, tst, user, parseUnits('150', 6)), { tst: '900' });
  await at(
    end - 12n * HOUR,
    () => transfer(self, tst, bank.account.address, parseUnits('99.5', 6)),
    {
      tst: '800.5',
    },
  );
  await at(end, () => testClient.mine({ blocks: 1 }));
  return { user, tst, fresh, blocks, testClient };
}

/** A chain file (CHAIN_CONFIG_FILE) listing only the local chain as Fuji, with the history's tokens. */
export function writeChainFile(file: string, history: PortfolioHistory, rpcUrl: string): void {
  const chain = {
    name: 'Local test chain',
    rpcUrl,
    nativeCurrency: { symbol: 'ETH', decimals: 18, priceId: 'ethereum' },
    tokens: {
      TST: { address: history.tst, decimals: 6, priceId: 'test-token' },
      // No priceId: the price API is asked for the symbol in lower case.
      NEW: { address: history.fresh, decimals: 18 },
    },
  };
  writeFileSync(file, JSON.stringify({ chains: { 43113: chain } }));
}

const MULTICALL3_SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
/// Multicall3's aggregate3, as deployed at 0xcA11bde05977b3631167028862bE2a173976CA11.
contract Multicall3 {
    struct Call3 { address target; bool allowFailure; bytes callData; }
    struct Result { bool success; bytes returnData; }
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(success || calls[i].allowFailure, "Multicall3: call failed");
            results[i] = Result(success, data);
        }
    }
}`;

/** The runtime code of Multicall3's aggregate3, compiled with the npm compiler. */
export function multicall3RuntimeCode(): Hex {
  const input = {
    language: 'Solidity',
    sources: { 'Multicall3.sol': { content: MULTICALL3_SOURCE } },
    settings: {
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return `0x${output.contracts['Multicall3.sol'].Multicall3.evm.deployedBytecode.object}`;
}
