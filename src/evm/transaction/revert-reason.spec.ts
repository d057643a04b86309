import {
  BaseError,
  encodeAbiParameters,
  encodeErrorResult,
  parseAbi,
  RpcRequestError,
  toFunctionSelector,
} from 'viem';
import { ERC20_ERRORS, explainRevert, revertDataOf } from './revert-reason';
import { MAX_REASON_CHARS } from '../chains/chain-rpc';

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

describe('explainRevert on hostile revert data (issue 33.2)', () => {
  const PREFIX = 'The transaction would fail: ';
  const MB = 1_000_000;
  const HUGE_ERRORS = parseAbi([
    'error Blob(string note, bytes payload)',
    'error Many(uint256[] values)',
    'error Nested(string[][] rows)',
  ]);

  it('quotes at most MAX_REASON_CHARS of a 1 MB reason, decoding only its first bytes', () => {
    const decode = jest.spyOn(TextDecoder.prototype, 'decode');
    try {
      const why = explainRevert(reason(`Sale: ${'x'.repeat(MB)}`));
      expect(why.code).toBe('WOULD_REVERT');
      expect(why.reason).toMatch(/^The transaction would fail: Sale: x+…$/);
      expect(why.reason.length).toBe(PREFIX.length + MAX_REASON_CHARS);
      expect(why.raw.length).toBeLessThanOrEqual(300);
      // The megabyte is never turned into text: one decode of a bounded prefix.
      const decoded = decode.mock.calls.map(([bytes]) => (bytes as Uint8Array).length);
      expect(Math.max(...decoded)).toBeLessThanOrEqual(2_048);
    } finally {
      decode.mockRestore();
    }
  });

  it('shows no control character, line break or bidi override of the reason', () => {
    const why = explainRevert(reason('Frozen\r\n{"fake":"line"}\u0000\u001b[2J\u202eevil\u0085'));
    expect(why.reason).toBe('The transaction would fail: Frozen {"fake":"line"} [2J evil');
    expect(why.raw).toBe('Error(Frozen {"fake":"line"} [2J evil)');
  });

  it('shows no URL of the reason', () => {
    const why = explainRevert(reason('Paused, see https://status.example/k3y?token=s3cret'));
    expect(why.reason).toBe('The transaction would fail: Paused, see <url>');
    expect(why.raw).not.toContain('s3cret');
  });

  it('still reads a known reason at the end of a long one', () => {
    expect(explainRevert(reason(`${'a'.repeat(300)}: EXPIRED`)).reason).toBe(
      'The transaction’s deadline has passed',
    );
  });

  it('says a reason made only of controls without quoting it', () => {
    expect(explainRevert(reason('\u0000\n\u001b')).reason).toBe('The transaction would fail');
  });

  it('refuses a reason whose declared length runs past the data, as a bare selector', () => {
    const whole = reason('Sale: not started');
    const lying = `${whole.slice(0, 74)}${'f'.repeat(64)}${whole.slice(138)}` as `0x${string}`;
    expect(explainRevert(lying)).toMatchObject({ raw: '0x08c379a0', code: 'WOULD_REVERT' });
    expect(explainRevert(whole.slice(0, 80) as `0x${string}`).raw).toBe('0x08c379a0');
  });

  it("renders a custom error's arguments within the bounds, controls and URLs out", () => {
    const data = encodeErrorResult({
      abi: HUGE_ERRORS,
      errorName: 'Blob',
      args: [`a\nb https://x.example/s3cret ${'n'.repeat(1_000)}`, `0x${'ab'.repeat(1_000)}`],
    });
    const why = explainRevert(data, { abi: HUGE_ERRORS });
    expect(why.reason).toMatch(/^The transaction would fail: Blob\(a b <url> n+…$/);
    expect(why.reason.length).toBe(PREFIX.length + MAX_REASON_CHARS);
    expect(why.raw.length).toBeLessThanOrEqual(300);
    expect(why.raw).not.toContain('s3cret');
  });

  it('renders long and nested lists only up to the bound', () => {
    const values = Array.from({ length: 100 }, (_, i) => BigInt(i) * 10n ** 70n);
    const many = encodeErrorResult({ abi: HUGE_ERRORS, errorName: 'Many', args: [values] });
    expect(explainRevert(many, { abi: HUGE_ERRORS }).raw).toMatch(/^Many\(\[0, 1\d{70}, /);
    expect(explainRevert(many, { abi: HUGE_ERRORS }).raw.length).toBeLessThanOrEqual(300);
    const rows = [['a', 'b'], ['c']];
    const nested = encodeErrorResult({ abi: HUGE_ERRORS, errorName: 'Nested', args: [rows] });
    expect(explainRevert(nested, { abi: HUGE_ERRORS }).raw).toBe('Nested([[a, b], [c]])');
  });

  it('decodes no more than the first 4 KiB of a custom error: past it, the selector', () => {
    const data = encodeErrorResult({
      abi: HUGE_ERRORS,
      errorName: 'Blob',
      args: ['note', `0x${'cd'.repeat(MB)}`],
    });
    const why = explainRevert(data, { abi: HUGE_ERRORS });
    expect(why).toEqual({
      code: 'WOULD_REVERT',
      reason: `The transaction would fail (the contract refused it with error ${data.slice(0, 10)})`,
      raw: data.slice(0, 10),
    });
  });

  it("keeps OpenZeppelin's errors readable when junk follows them", () => {
    const data = encodeErrorResult({
      abi: ERC20_ERRORS,
      errorName: 'ERC20InsufficientBalance',
      args: [USER, 1n, 2n],
    });
    const why = explainRevert(`${data}${'00'.repeat(MB)}`);
    expect(why).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
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
