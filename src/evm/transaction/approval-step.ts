import { parseAbiItem } from 'viem';
import { formatAmount } from './amounts';
import type { TransactionSpec } from './transaction-builder';
import { approvalAmount, type Erc20Spend, MAX_APPROVAL_MULTIPLE } from './erc20-spend';

/** ERC-20's approve, with the argument names a wallet and the platform show. */
export const ERC20_APPROVE = parseAbiItem(
  'function approve(address spender, uint256 amount) returns (bool)',
);

/** Why a spend cannot be checked or approved as the action wrote it; undefined when it can. */
export function checkSpend(spend: Erc20Spend): string | undefined {
  const approve = approvalAmount(spend);
  if (spend.amount <= 0n) return `spend.amount must be above 0 (got ${spend.amount})`;
  if (approve < spend.amount) return 'spend.approve must cover spend.amount';
  if (approve > spend.amount * MAX_APPROVAL_MULTIPLE) {
    return `spend.approve may be at most ${MAX_APPROVAL_MULTIPLE} × spend.amount: never an unlimited approval`;
  }
  return undefined;
}

/**
 * The approval a user signs before the action itself (step 1 of 2, or of 3 when the token must
 * go through 0 first): exactly what the spend needs, shown with the token's symbol and amount and
 * what comes next, so the wallet and the platform say what it is.
 */
export function approvalStep(
  spec: TransactionSpec,
  spend: Erc20Spend,
  { amount, reset }: { amount: bigint; reset: boolean },
): TransactionSpec {
  const { symbol, decimals, address } = spend.token;
  const granted = reset ? 0n : amount;
  const steps = reset ? 3 : 2;
  const next = spec.display?.args?.summary;
  const what = reset
    ? `reset the ${symbol} allowance of ${spend.spender} to 0 (${symbol} asks for it before a new approval)`
    : `approve ${formatAmount(granted, decimals)} ${symbol} for ${spend.spender}`;
  return {
    chainId: spec.chainId,
    to: address,
    call: { abi: ERC20_APPROVE, args: [spend.spender, granted] },
    from: spec.from,
    display: {
      args: {
        token: symbol,
        step: 1,
        steps,
        summary: `Step 1 of ${steps}: ${what}. Once it is mined, run the action again${typeof next === 'string' ? ` to ${next.charAt(0).toLowerCase()}${next.slice(1)}` : ''}`,
      },
    },
  };
}
