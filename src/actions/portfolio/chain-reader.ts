import {
  type Address,
  BaseError,
  ContractFunctionZeroDataError,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  multicall3Abi,
  type PublicClient,
} from 'viem';
import { RpcAnswerError } from '../../evm';
import type { BlockHeader, BlockSource } from './block-at-time';

/** What a token says of itself; a field it fails to answer (a non-standard token) is absent. */
export interface TokenMetadata {
  symbol?: string;
  decimals?: number;
}

export interface Balances {
  native: bigint;
  /** In the order the tokens were asked for. */
  tokens: bigint[];
}

/** What the portfolio reads from a chain; the service is tested against fakes of it. */
export interface ChainReader extends BlockSource {
  latestBlock(): Promise<BlockHeader>;
  tokenMetadata(tokens: readonly Address[]): Promise<TokenMetadata[]>;
  /** A token with no contract at that block (deployed later) holds nothing there. */
  balances(owner: Address, tokens: readonly Address[], blockNumber: bigint): Promise<Balances>;
}

/** Multicall3's address: the same on every chain that has it (a keyless deployment). */
export const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

type TokenCall =
  | { address: Address; functionName: 'balanceOf'; args: readonly [Address] }
  | { address: Address; functionName: 'decimals' | 'symbol'; args?: undefined };

/**
 * One token call's result. A contract that is not there, reverts or answers off-standard is an
 * answer, not a failure of the chain: the caller decides what it means.
 */
type Outcome = { ok: true; value: unknown } | { ok: false; noContract: boolean };

const hasZeroData = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((e) => e instanceof ContractFunctionZeroDataError) !== null;

const CONTRACT_ANSWER =
  /^(ContractFunction(Reverted|ZeroData)Error|ExecutionRevertedError|AbiDecoding)/;

/** viem wraps a contract's own failures in ContractFunction… errors; anything else is the RPC. */
const isContractAnswer = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.name === 'ContractFunctionExecutionError' &&
  error.walk((e) => CONTRACT_ANSWER.test((e as Error).name)) !== null;

/** A configured token that exists but does not answer `balanceOf` as ERC-20 says. */
export class TokenReadError extends Error {
  override readonly name = 'TokenReadError';

  constructor(readonly token: Address) {
    super(`Token ${token} does not answer balanceOf`);
  }
}

/**
 * A ChainReader over viem. Token calls go out as one Multicall3 `aggregate3` where the chain has
 * Multicall3 at the block read, else as individual calls that the batching transport sends as one
 * JSON-RPC batch; concurrent requests (the native balance, block lookups) join that batch.
 * Failures of the RPC surface as viem errors, whose messages hold the URL: never show them.
 */
export class ViemChainReader implements ChainReader {
  /** Asked once per chain (where it is deployed, it stays), in the batch of the first request. */
  private multicallPresent?: Promise<boolean>;

  constructor(private readonly client: PublicClient) {}

  async latestBlock(): Promise<BlockHeader> {
    const [block] = await Promise.all([
      this.client.getBlock({ blockTag: 'latest' }),
      this.hasMulticall(),
    ]);
    return header(block);
  }

  /** The node must answer the block asked for: the search would go astray on another. */
  async block(number: bigint): Promise<BlockHeader> {
    const found = header(await this.client.getBlock({ blockNumber: number }));
    if (found.number !== number) throw new RpcAnswerError('eth_getBlockByNumber');
    return found;
  }

  async tokenMetadata(tokens: readonly Address[]): Promise<TokenMetadata[]> {
    const calls = tokens.flatMap((address): TokenCall[] => [
      { address, functionName: 'symbol' },
      { address, functionName: 'decimals' },
    ]);
    const outcomes = await this.read(calls);
    return tokens.map((_, i) => {
      const symbol = outcomes[2 * i];
      const decimals = outcomes[2 * i + 1];
      return {
        ...(symbol.ok && typeof symbol.value === 'string' && symbol.value.trim() !== ''
          ? { symbol: symbol.value.trim() }
          : {}),
        ...(decimals.ok && typeof decimals.value === 'number' ? { decimals: decimals.value } : {}),
      };
    });
  }

  async balances(
    owner: Address,
    tokens: readonly Address[],
    blockNumber: bigint,
  ): Promise<Balances> {
    const calls = tokens.map((address): TokenCall => ({
      address,
      functionName: 'balanceOf',
      args: [owner],
    }));
    const [native, outcomes] = await Promise.all([
      this.client.getBalance({ address: owner, blockNumber }),
      this.read(calls, blockNumber),
    ]);
    return {
      native,
      tokens: outcomes.map((outcome, i) => {
        if (outcome.ok) return outcome.value as bigint;
        if (outcome.noContract) return 0n;
        throw new TokenReadError(calls[i].address);
      }),
    };
  }

  private hasMulticall(): Promise<boolean> {
    this.multicallPresent ??= this.client.getCode({ address: MULTICALL3 }).then(
      (code) => code !== undefined && code !== '0x',
      (error: unknown) => {
        this.multicallPresent = undefined;
        throw error;
      },
    );
    return this.multicallPresent;
  }

  private async read(calls: readonly TokenCall[], blockNumber?: bigint): Promise<Outcome[]> {
    if (calls.length === 0) return [];
    if (await this.hasMulticall()) {
      const outcomes = await this.aggregate(calls, blockNumber);
      if (outcomes) return outcomes;
    }
    return Promise.all(
      calls.map((call) =>
        this.client.readContract({ ...call, abi: erc20Abi, blockNumber }).then(
          (value): Outcome => ({ ok: true, value }),
          (error: unknown): Outcome => {
            if (!isContractAnswer(error)) throw error;
            return { ok: false, noContract: hasZeroData(error) };
          },
        ),
      ),
    );
  }

  /** Undefined when Multicall3 was not yet deployed at that block (the reads go one by one). */
  private async aggregate(
    calls: readonly TokenCall[],
    blockNumber?: bigint,
  ): Promise<Outcome[] | undefined> {
    const results = await this.client
      .readContract({
        address: MULTICALL3,
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [
          calls.map((call) => ({
            target: call.address,
            allowFailure: true,
            callData: encode(call),
          })),
        ],
        blockNumber,
      })
      .catch((error: unknown) => {
        if (hasZeroData(error)) return undefined;
        throw error;
      });
    return results?.map(({ success, returnData }, i) => {
      if (!success) return { ok: false, noContract: false };
      if (returnData === '0x') return { ok: false, noContract: true };
      return decode(calls[i], returnData);
    });
  }
}

/** A pending block (no number) or one without a timestamp is not a block the search can use. */
function header(block: { number: bigint | null; timestamp: bigint }): BlockHeader {
  const { number, timestamp } = block as { number: unknown; timestamp: unknown };
  if (typeof number !== 'bigint' || typeof timestamp !== 'bigint') {
    throw new RpcAnswerError('eth_getBlockByNumber');
  }
  return { number, timestamp };
}

function encode(call: TokenCall): Hex {
  return call.functionName === 'balanceOf'
    ? encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: call.args })
    : encodeFunctionData({ abi: erc20Abi, functionName: call.functionName });
}

function decode(call: TokenCall, data: Hex): Outcome {
  try {
    return {
      ok: true,
      value: decodeFunctionResult({ abi: erc20Abi, functionName: call.functionName, data }),
    };
  } catch {
    return { ok: false, noContract: false };
  }
}
