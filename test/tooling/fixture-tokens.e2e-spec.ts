import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  type HDAccount,
  type Hex,
  http,
  isHex,
  type PublicClient,
} from 'viem';
import { call } from '../../src/testing/evm/contracts';
import {
  deployFixtureToken,
  FIXTURE_TOKEN_ABI,
  type FixtureTokenName,
  OZ_ERC20_ERRORS_ABI,
} from '../../src/testing/evm/fixture-tokens';
import {
  type LocalChain,
  type LocalWallet,
  startLocalChain,
} from '../../src/testing/evm/local-chain';

const SUPPLY = 1_000_000n * 10n ** 6n;
const FROZEN_REASON = 'FrozenToken: transfers are frozen';

type TokenCall =
  | { functionName: 'transfer'; args: readonly [Address, bigint] }
  | { functionName: 'approve'; args: readonly [Address, bigint] }
  | { functionName: 'transferFrom'; args: readonly [Address, Address, bigint] };

/** The revert data an error carries, wherever viem wrapped it (Hardhat nests it in `data.data`). */
function hexData(error: unknown): Hex | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const { data } = error;
  if (typeof data === 'string' && isHex(data)) return data;
  if (typeof data === 'object' && data !== null && 'data' in data) {
    return typeof data.data === 'string' && isHex(data.data) ? data.data : undefined;
  }
  return undefined;
}

describe('Fixture ERC-20s (src/testing/evm/FixtureTokens.sol) on a local chain', () => {
  let chain: LocalChain;
  let owner: HDAccount;
  let other: HDAccount;
  let ownerWallet: LocalWallet;
  let otherWallet: LocalWallet;
  /**
   * For calls that may revert. Hardhat answers a reverted eth_call with JSON-RPC error -32603,
   * which viem's http transport retries by default (3 times, with backoff): a second per revert.
   */
  let caller: PublicClient;
  const tokens = {} as Record<FixtureTokenName, Address>;

  beforeAll(async () => {
    chain = await startLocalChain();
    [owner, other] = chain.accounts;
    ownerWallet = chain.wallet(owner);
    otherWallet = chain.wallet(other);
    caller = createPublicClient({
      chain: chain.chain,
      transport: http(chain.rpcUrl, { retryCount: 0 }),
    });
    // Sequential: one wallet, so each deployment needs the previous one's nonce to be used.
    for (const name of ['OzToken', 'ZeroFirstToken', 'FrozenToken'] as const) {
      tokens[name] = await deployFixtureToken(chain, ownerWallet, name, {
        name: `${name} fixture`,
        symbol: name.slice(0, 4).toUpperCase(),
        decimals: 6,
        supply: SUPPLY,
      });
    }
    // A cold solc-js compile of OpenZeppelin takes a while on a shared machine.
  }, 180_000);

  afterAll(async () => {
    await chain?.stop();
  });

  function balance(token: Address, holder: Address): Promise<bigint> {
    return chain.publicClient.readContract({
      address: token,
      abi: FIXTURE_TOKEN_ABI,
      functionName: 'balanceOf',
      args: [holder],
    });
  }

  function allowance(token: Address, holder: Address, spender: Address): Promise<bigint> {
    return chain.publicClient.readContract({
      address: token,
      abi: FIXTURE_TOKEN_ABI,
      functionName: 'allowance',
      args: [holder, spender],
    });
  }

  async function send(wallet: LocalWallet, token: Address, request: TokenCall): Promise<void> {
    await call(chain, wallet, { address: token, abi: FIXTURE_TOKEN_ABI, ...request });
  }

  /** eth_call from a funded account; resolves to the call's return data when it succeeds. */
  async function ethCall(from: Address, token: Address, request: TokenCall): Promise<Hex> {
    const { data } = await caller.call({
      account: from,
      to: token,
      data: encodeFunctionData({ abi: FIXTURE_TOKEN_ABI, ...request }),
    });
    if (data === undefined) throw new Error('The call returned no data');
    return data;
  }

  /** The raw revert data of an eth_call that must revert; anything else fails the test. */
  async function revertData(from: Address, token: Address, request: TokenCall): Promise<Hex> {
    let failure: unknown;
    try {
      await ethCall(from, token, request);
    } catch (error) {
      failure = error;
    }
    if (failure === undefined) throw new Error(`${request.functionName} did not revert`);
    // Not viem's error (a bug in the test itself, say): no revert to read, so report it as is.
    if (!(failure instanceof BaseError)) {
      throw new Error(`${request.functionName} failed outside viem`, { cause: failure });
    }
    const data = hexData(failure.walk((e) => hexData(e) !== undefined));
    if (data === undefined) throw new Error(`No revert data in: ${failure.message}`);
    return data;
  }

  /** A successful `returns (bool)` call must return true; a token returning false would not do. */
  async function expectCallReturnsTrue(
    from: Address,
    token: Address,
    request: TokenCall,
  ): Promise<void> {
    const data = await ethCall(from, token, request);
    const returned = decodeFunctionResult({
      abi: FIXTURE_TOKEN_ABI,
      functionName: request.functionName,
      data,
    });
    expect(returned).toBe(true);
  }

  describe('OzToken', () => {
    it('mints the whole supply to the deployer and reports its decimals', async () => {
      const token = tokens.OzToken;
      await expect(balance(token, owner.address)).resolves.toBe(SUPPLY);
      await expect(
        chain.publicClient.readContract({
          address: token,
          abi: FIXTURE_TOKEN_ABI,
          functionName: 'decimals',
        }),
      ).resolves.toBe(6);
    });

    it('reverts a transfer above the balance with ERC20InsufficientBalance(sender, balance, needed)', async () => {
      const token = tokens.OzToken;
      // Moved away first, so the error's balance is not simply the supply.
      await send(ownerWallet, token, { functionName: 'transfer', args: [other.address, 250n] });
      const held = await balance(token, owner.address);
      expect(held).toBe(SUPPLY - 250n);

      // The whole balance goes: only the amount decides whether the call reverts.
      await expectCallReturnsTrue(owner.address, token, {
        functionName: 'transfer',
        args: [other.address, held],
      });
      const data = await revertData(owner.address, token, {
        functionName: 'transfer',
        args: [other.address, held + 1n],
      });
      const decoded = decodeErrorResult({ abi: OZ_ERC20_ERRORS_ABI, data });
      expect(decoded.errorName).toBe('ERC20InsufficientBalance');
      expect(decoded.args).toEqual([owner.address, held, held + 1n]);
    });

    it('names the same error through simulateContract', async () => {
      const token = tokens.OzToken;
      const held = await balance(token, owner.address);
      let failure: unknown;
      try {
        await caller.simulateContract({
          account: owner.address,
          address: token,
          abi: FIXTURE_TOKEN_ABI,
          functionName: 'transfer',
          args: [other.address, held + 10n],
        });
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(BaseError);
      const reverted = (failure as BaseError).walk(
        (e) => e instanceof ContractFunctionRevertedError,
      );
      expect(reverted).toBeInstanceOf(ContractFunctionRevertedError);
      const { data } = reverted as ContractFunctionRevertedError;
      expect(data?.errorName).toBe('ERC20InsufficientBalance');
      expect(data?.args).toEqual([owner.address, held, held + 10n]);
    });

    it('reverts transferFrom without allowance with ERC20InsufficientAllowance(spender, allowance, needed)', async () => {
      const token = tokens.OzToken;
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(0n);
      const data = await revertData(other.address, token, {
        functionName: 'transferFrom',
        args: [owner.address, other.address, 40n],
      });
      const decoded = decodeErrorResult({ abi: OZ_ERC20_ERRORS_ABI, data });
      expect(decoded.errorName).toBe('ERC20InsufficientAllowance');
      expect(decoded.args).toEqual([other.address, 0n, 40n]);

      // With the allowance granted, the very same call goes through.
      await send(ownerWallet, token, { functionName: 'approve', args: [other.address, 40n] });
      await expectCallReturnsTrue(other.address, token, {
        functionName: 'transferFrom',
        args: [owner.address, other.address, 40n],
      });
    });
  });

  describe('ZeroFirstToken', () => {
    it('refuses to change a non-zero allowance to another non-zero value, with no revert data', async () => {
      const token = tokens.ZeroFirstToken;
      await send(ownerWallet, token, { functionName: 'approve', args: [other.address, 5n] });
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(5n);

      // A bare `require`, as USDT's: the revert carries nothing to decode.
      const data = await revertData(owner.address, token, {
        functionName: 'approve',
        args: [other.address, 7n],
      });
      expect(data).toBe('0x');
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(5n);
    });

    it('accepts the change once the allowance is reset to 0', async () => {
      const token = tokens.ZeroFirstToken;
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(5n);
      await send(ownerWallet, token, { functionName: 'approve', args: [other.address, 0n] });
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(0n);
      await send(ownerWallet, token, { functionName: 'approve', args: [other.address, 7n] });
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(7n);
    });

    it('still spends allowances as OZ does (transferFrom lowers a non-zero allowance)', async () => {
      const token = tokens.ZeroFirstToken;
      // The rule is on approve only: OZ's _spendAllowance goes through _approve, not approve.
      await send(otherWallet, token, {
        functionName: 'transferFrom',
        args: [owner.address, other.address, 3n],
      });
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(4n);
      await expect(balance(token, other.address)).resolves.toBe(3n);
      await expect(balance(token, owner.address)).resolves.toBe(SUPPLY - 3n);
    });
  });

  describe('FrozenToken', () => {
    it('lets the constructor mint through', async () => {
      await expect(balance(tokens.FrozenToken, owner.address)).resolves.toBe(SUPPLY);
    });

    it(`reverts a transfer with Error("${FROZEN_REASON}")`, async () => {
      const token = tokens.FrozenToken;
      const data = await revertData(owner.address, token, {
        functionName: 'transfer',
        args: [other.address, 1n],
      });
      // No ABI given: viem decodes the built-in Error(string) on its own.
      const decoded = decodeErrorResult({ data });
      expect(decoded.errorName).toBe('Error');
      expect(decoded.args).toEqual([FROZEN_REASON]);
    });

    it('reverts transferFrom with the same reason, even within the allowance', async () => {
      const token = tokens.FrozenToken;
      await send(ownerWallet, token, { functionName: 'approve', args: [other.address, 10n] });
      await expect(allowance(token, owner.address, other.address)).resolves.toBe(10n);
      const data = await revertData(other.address, token, {
        functionName: 'transferFrom',
        args: [owner.address, other.address, 1n],
      });
      expect(decodeErrorResult({ data }).args).toEqual([FROZEN_REASON]);
      await expect(balance(token, owner.address)).resolves.toBe(SUPPLY);
      await expect(balance(token, other.address)).resolves.toBe(0n);
    });
  });
});
