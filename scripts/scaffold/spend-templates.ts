import { chainSetup } from './chain-setup';
import type { ModeTemplates, TemplateInput } from './templates';

/** Funded account 1 of the local chains (the development mnemonic): no one's real funds. */
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/**
 * A transaction-mode action that spends the user's ERC-20 through a contract: it pays an amount
 * of USDC or USDT into the chain's first router (a swap for the wrapped native coin), quoted by
 * a read in the batch of its dry run (`buildBest`: one round trip). The kit simulates it as the
 * user and, while the allowance is short, answers the exact approval first (`spend`,
 * docs/chains-and-transactions.md#approve-then-act).
 */
export function spendTemplates({ names, miniAppConstant }: TemplateInput): ModeTemplates {
  const { kebab, pascal, camel, title } = names;
  return {
    action: `import { POSITIVE_DECIMAL_PATTERN } from '../../evm';
import { ActionParam, defineAction } from '../../kit';
import { ${miniAppConstant} } from '../mini-apps';

export class ${pascal}Params {
  @ActionParam({
    type: 'select',
    label: 'Pay with',
    required: true,
    options: [
      { label: 'USDC', value: 'USDC' },
      { label: 'USDT', value: 'USDT' },
    ],
  })
  token!: string;

  /** Text, not a number: converted to base units exactly, with the token's decimals. */
  @ActionParam({
    type: 'string',
    label: 'Amount',
    required: true,
    placeholder: '10',
    description: 'How much of the token to pay, in whole tokens',
    pattern: POSITIVE_DECIMAL_PATTERN,
    maxLength: 100,
  })
  amount!: string;
}

export const ${camel}Action = defineAction({
  label: '${title}',
  description: 'Pays an amount of a stablecoin for the wrapped native coin, approving it first',
  chains: { source: 43113 },
  path: '/api/${kebab}',
  /** It reads the chain (the quote, the simulation): a 5xx is its answer when the node is down. */
  callsOutside: true,
  miniApp: ${miniAppConstant},
  params: ${pascal}Params,
  /** The transaction is the acting user's: the handler's context types \`userAddress\` as present. */
  requiresUser: true,
  samples: [{ params: { token: 'USDC', amount: '10' }, userAddress: '${USER}' }],
});
`,
    service: `import { HttpStatus, Injectable } from '@nestjs/common';
import { parseAbiItem } from 'viem';
import { toBaseUnits, type TransactionSpec } from '../../evm';
import {
  ActionException,
  ChainRegistry,
  type ContextOf,
  type ExecutionResponse,
  TransactionBuilder,
} from '../../kit';
import { ${camel}Action, type ${pascal}Params } from './${kebab}.action';

/** The contract the user pays into: a Uniswap V2 router, which takes the token by transferFrom. */
const GET_AMOUNTS_OUT = parseAbiItem(
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
);
const SWAP = parseAbiItem(
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
);

/** The least the user accepts: the quote less 1 % (basis points). */
export function minimumOut(quoted: bigint, slippageBps = 100n): bigint {
  return (quoted * (10_000n - slippageBps)) / 10_000n;
}

@Injectable()
export class ${pascal}Service {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly builder: TransactionBuilder,
  ) {}

  async run(
    { token, amount }: ${pascal}Params,
    context: ContextOf<typeof ${camel}Action>,
  ): Promise<ExecutionResponse> {
    const chain = this.chains.forRequest(${camel}Action, context);
    const paid = this.chains.token(chain, token, 'token');
    const wrapped = this.chains.token(chain, 'W' + chain.native.symbol, 'token');
    const [router] = chain.routers.values();
    if (!paid.address || !wrapped.address || !router) {
      throw new ActionException(
        HttpStatus.SERVICE_UNAVAILABLE,
        chain.name + ' lists no router or tokens for this action',
        { code: 'NOT_CONFIGURED' },
      );
    }
    const amountIn = toBaseUnits(amount, { param: 'amount', ...paid });
    const path = [paid.address, wrapped.address];
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 20 * 60);
    const spent = { ...paid, address: paid.address };
    const pay = (amountOutMin: bigint): TransactionSpec => ({
      chainId: chain.chainId,
      to: router,
      call: { abi: SWAP, args: [amountIn, amountOutMin, path, context.userAddress, deadline] },
      // The balance is checked and the allowance read: while it is short, the answer is the
      // approval of exactly amountIn, and the same request answers this call once it is mined.
      spend: { token: spent, amount: amountIn, spender: router },
      display: { args: { token, amount } },
    });
    // One round trip to the node: the quote is read and the payment dry-run with a minimum of 0
    // (proving it lands and giving what it pays) in one batch at one block; then the answer.
    return this.builder.buildBest(
      {
        chainId: chain.chainId,
        reads: [
          {
            address: router,
            abi: [GET_AMOUNTS_OUT],
            functionName: 'getAmountsOut',
            args: [amountIn, path],
          },
        ],
        candidates: [pay(0n)],
        pick: ({ reads: [quote], runs: [run] }) => {
          if (run.kind === 'refused') throw run.refusal!;
          // Dry-run: the minimum from what it paid (the same call with a minimum up to that
          // amount passes at that state). Approval first, or unchecked: from the quote.
          const out = lastAmount(run.kind === 'lands' ? run.output : settledValue(quote));
          if (out === 0n) {
            throw new ActionException(HttpStatus.BAD_REQUEST, amount + ' ' + token + ' buys nothing', {
              data: { invalidParams: ['amount'] },
              code: 'ZERO_OUTPUT',
            });
          }
          return { candidate: 0, answer: pay(minimumOut(out)) };
        },
      },
      context,
    );
  }
}

/** A router's \`amounts\`: the last is what the payment buys (0 for anything else). */
function lastAmount(amounts: unknown): bigint {
  const last: unknown = Array.isArray(amounts) ? (amounts as unknown[]).at(-1) : undefined;
  return typeof last === 'bigint' ? last : 0n;
}

/** A read's value; a revert or a failing node leaves no quote. */
const settledValue = (read: PromiseSettledResult<unknown>): unknown =>
  read.status === 'fulfilled' ? read.value : undefined;
`,
    serviceSpec: `import { minimumOut } from './${kebab}.service';

describe('minimumOut', () => {
  it('accepts 1 % less than the quote by default, rounding down', () => {
    expect(minimumOut(1_000_000n)).toBe(990_000n);
    expect(minimumOut(999n)).toBe(989n);
  });

  it('takes another slippage in basis points', () => {
    expect(minimumOut(1_000_000n, 50n)).toBe(995_000n);
  });
});
`,
    returns: { type: 'Promise<ExecutionResponse>', kitImport: 'type ExecutionResponse' },
    moduleImports: { names: 'TransactionModule', from: '../../kit' },
    e2eImports: `import { erc20Abi } from 'viem';
import type { ExecutionResponse } from '../../src/kit';
import { sendAnswer, startTestChain, type TestChain } from '../../src/testing';
`,
    e2eSetup: chainSetup(
      'A local chain passing for the declared chain (43113): tokens, router, funded users.',
    ),
    e2eTests: `
  it('answers the approval first, then the payment, both landing on the chain', async () => {
    const user = testChain.users[1];
    const ask = () =>
      postJson<ExecutionResponse>(
        app,
        PATH,
        { params: { token: 'USDC', amount: '25' } },
        { 'x-user-address': user.address },
      );
    const approval = await ask();
    expect(approval.status).toBe(200);
    expect(approval.body.params).toMatchObject({
      functionName: 'approve',
      args: { amount: '25000000', step: 1, steps: 2 },
    });
    expect((await sendAnswer(testChain, user, approval.body)).receipt.status).toBe('success');

    const balance = (): Promise<bigint> =>
      testChain.chain.publicClient.readContract({
        address: testChain.fixture.wrapped,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [user.address],
      });
    const before = await balance();
    const payment = await ask();
    expect(payment.body.params).toMatchObject({ functionName: 'swapExactTokensForTokens' });
    expect((await sendAnswer(testChain, user, payment.body)).receipt.status).toBe('success');
    expect(await balance()).toBeGreaterThan(before);
  });

  it('refuses an amount above what the user holds, in words', async () => {
    const { status, body } = await postJson(
      app,
      PATH,
      { params: { token: 'USDC', amount: '5000' } },
      { 'x-user-address': testChain.users[2].address },
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
  });
`,
  };
}
