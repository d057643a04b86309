import {
  BaseError,
  encodeAbiParameters,
  encodeErrorResult,
  parseAbi,
  RpcRequestError,
  toFunctionSelector,
} from 'viem';
import { ERC20_ERRORS, explainRevert, revertDataOf } from './revert-reason';

const USER = '0x52908400098527886E0F7030069857D2E4169EE7';
const USDC = { symbol: 'USDC', decimals: 6 };
const reason = (text: string): `0x${string}` =>
  `0x08c379a0${encodeAbiParameters([{ type: 'string' }], [text]).slice(2)}`;
const panic = (code: bigint): `0x${string}` =>
  `0x4e487b71${encodeAbiParameters([{ type: 'uint256' }], [code]).slice(2)}`;
const ACTION_ERRORS = parseAbi(['error SoldOut(uint256 ticketId)']);

describe('explainRevert', () => {
  it.each<[string, `0x${string}` | undefined, string, string]>([
    [
      "Uniswap V2's router minimum",
      reason('UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT'),
      'WOULD_REVERT',
      'The pools can no longer pay the minimum you would accept: try a smaller amount or more slippage',
    ],
    [
      "the TransferHelper's transferFrom",
      reason('TransferHelper: TRANSFER_FROM_FAILED'),
      'WOULD_REVERT',
      'The token could not be taken from your wallet (balance or approval too low)',
    ],
    [
      'an expired deadline',
      reason('Pancake: EXPIRED'),
      'WOULD_REVERT',
      'The transaction’s deadline has passed',
    ],
    [
      'any other reason, quoted',
      reason('Sale: not started'),
      'WOULD_REVERT',
      'The transaction would fail: Sale: not started',
    ],
    [
      'an arithmetic panic',
      panic(0x11n),
      'WOULD_REVERT',
      'The transaction would fail: an amount over- or underflowed',
    ],
    ['an unknown panic', panic(0x99n), 'WOULD_REVERT', 'The transaction would fail: panic 153'],
    ['no data', undefined, 'WOULD_REVERT', 'The transaction would fail'],
    ['empty data', '0x', 'WOULD_REVERT', 'The transaction would fail'],
    [
      'an error no ABI names',
      '0xdeadbeef',
      'WOULD_REVERT',
      'The transaction would fail (the contract refused it with error 0xdeadbeef)',
    ],
  ])('reads %s', (_case, data, code, text) => {
    expect(explainRevert(data)).toEqual({ code, reason: text, raw: expect.any(String) });
  });

  it("says OpenZeppelin's balance shortfall in the spent token's units", () => {
    const data = encodeErrorResult({
      abi: ERC20_ERRORS,
      errorName: 'ERC20InsufficientBalance',
      args: [USER, 1_000_000_000n, 5_000_500_000n],
    });
    expect(explainRevert(data, { token: USDC })).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      reason: 'You have 1,000 USDC; this needs 5,000.5 USDC',
      raw: `ERC20InsufficientBalance(${USER}, 1000000000, 5000500000)`,
    });
    expect(explainRevert(data).reason).toBe(
      'You have 1000000000 base units; this needs 5000500000 base units',
    );
  });

  it("says OpenZeppelin's allowance shortfall, with INSUFFICIENT_ALLOWANCE", () => {
    const data = encodeErrorResult({
      abi: ERC20_ERRORS,
      errorName: 'ERC20InsufficientAllowance',
      args: [USER, 0n, 10_000_000n],
    });
    expect(explainRevert(data, { token: USDC })).toMatchObject({
      code: 'INSUFFICIENT_ALLOWANCE',
      reason: 'The contract may spend 0 USDC of yours; this needs 10 USDC: approve it first',
    });
  });

  it("decodes the action's own ABI errors", () => {
    const data = encodeErrorResult({ abi: ACTION_ERRORS, errorName: 'SoldOut', args: [7n] });
    expect(explainRevert(data, { abi: ACTION_ERRORS })).toEqual({
      code: 'WOULD_REVERT',
      reason: 'The transaction would fail: SoldOut(7)',
      raw: 'SoldOut(7)',
    });
    expect(explainRevert(data).reason).toBe(
      `The transaction would fail (the contract refused it with error ${toFunctionSelector('SoldOut(uint256)')})`,
    );
  });
});

describe('revertDataOf', () => {
  const nodeError = (data: unknown): BaseError =>
    new BaseError('eth_call failed', {
      cause: new RpcRequestError({
        body: {},
        url: 'http://node',
        error: { code: -32603, message: 'reverted', data },
      }),
    });

  it('finds the revert data in the error chain, flat or nested as Hardhat sends it', () => {
    expect(revertDataOf(nodeError('0x08c379a0'))).toBe('0x08c379a0');
    expect(revertDataOf(nodeError({ message: 'reverted', data: '0xdeadbeef' }))).toBe('0xdeadbeef');
  });

  it('finds none where the node sent none, or text that is not hex', () => {
    expect(revertDataOf(nodeError(undefined))).toBeUndefined();
    expect(revertDataOf(nodeError('reverted'))).toBeUndefined();
    expect(revertDataOf(new Error('plain'))).toBeUndefined();
  });
});
