import type { TransactionSpec } from './transaction-spec';
import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../../contract/action.exception';
import type { ChainInfo } from '../chains/chains.config';
import { formatAmount } from './amounts';

/**
 * Gas that a transaction sending the coin is assumed to need at most when no estimate is asked:
 * several times a token transfer or a V2 swap. A wallet holding the value plus this much gas at
 * the batch's gas price is not asked for an estimate (the batch carries none, so a check costs one
 * round trip whatever the candidates); one holding less gets the chosen candidate's estimate, in
 * one more round trip, before it is answered or refused.
 */
export const GAS_CEILING = 1_000_000n;

/** An amount of the chain's coin in words: `0.5 AVAX`. */
export const coin = (units: bigint, chain: ChainInfo): string =>
  `${formatAmount(units, chain.native.decimals)} ${chain.native.symbol}`;

/** A 400 INSUFFICIENT_BALANCE saying what the user holds and what the transaction needs. */
export function shortfall(reason: string): ActionException {
  return new ActionException(HttpStatus.BAD_REQUEST, reason, { code: 'INSUFFICIENT_BALANCE' });
}

/** The refusal when `native` does not cover `value` plus `fee` (gas × price), else undefined. */
export function gasShortfall(
  chain: ChainInfo,
  native: bigint,
  value: bigint,
  fee: bigint,
): ActionException | undefined {
  const needed = value + fee;
  if (native >= needed) return undefined;
  return shortfall(
    `Not enough ${chain.native.symbol} for this amount plus gas: you have ${coin(native, chain)}; this needs about ${coin(needed, chain)}`,
  );
}

/**
 * The answer for a smart account holding no coin: its summary (what the wallet, the blink and the
 * platform show) says its gas was not checked, since a paymaster may pay it.
 */
export function gasUnchecked(spec: TransactionSpec): TransactionSpec {
  const summary = spec.display?.args?.summary;
  const note = 'Gas not checked: this smart account holds no coin, so a paymaster must pay its gas';
  return {
    ...spec,
    display: {
      ...spec.display,
      args: {
        ...spec.display?.args,
        summary: typeof summary === 'string' ? `${summary}. ${note}` : note,
      },
    },
  };
}
