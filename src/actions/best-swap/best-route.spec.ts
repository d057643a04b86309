import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../../kit';
import type { CandidateRun, PoolInfo, PoolQuote, TransactionSpec } from '../../evm';
import { bestRoute } from './best-route';

const pool = (name: string): PoolInfo => ({ name }) as PoolInfo;
const [alpha, beta, gamma] = [pool('alpha'), pool('beta'), pool('gamma')];
const pools = [alpha, beta, gamma];
const quote = (p: PoolInfo, amountOut: bigint): PoolQuote<PoolInfo> =>
  ({ pool: p, amountOut }) as PoolQuote<PoolInfo>;
const spec = {} as TransactionSpec;
const lands = (out: bigint): CandidateRun => ({ spec, kind: 'lands', output: [1n, out] });
const refused: CandidateRun = {
  spec,
  kind: 'refused',
  refusal: new ActionException(HttpStatus.BAD_REQUEST, 'no'),
};

describe('bestRoute', () => {
  it('counts a route that passed for what its dry run paid, not for its quote', () => {
    // alpha's reserves promise the most (a fee set too low), its swap pays the least.
    const quotes = [quote(alpha, 1_000n), quote(beta, 990n)];
    expect(bestRoute(quotes, [lands(900n), lands(950n), refused], pools)).toEqual({
      index: 1,
      amountOut: 950n,
    });
  });

  it('skips a route whose swap reverts, however good its quote', () => {
    const quotes = [quote(alpha, 1_000n), quote(beta, 10n)];
    expect(bestRoute(quotes, [refused, lands(9n), refused], pools)).toEqual({
      index: 1,
      amountOut: 9n,
    });
  });

  it('counts a route awaiting its approval (or unchecked) for its quote', () => {
    const quotes = [quote(alpha, 1_000n), quote(beta, 990n), quote(gamma, 5n)];
    const approve: CandidateRun = { spec, kind: 'approve' };
    const unchecked: CandidateRun = { spec, kind: 'unchecked' };
    expect(bestRoute(quotes, [approve, lands(995n), unchecked], pools)).toEqual({
      index: 0,
      amountOut: 1_000n,
    });
  });

  it('passes over a run that paid nothing or answered something else; none left: undefined', () => {
    const quotes = [quote(alpha, 1_000n), quote(beta, 990n)];
    const odd: CandidateRun = { spec, kind: 'lands', output: 'not amounts' };
    expect(bestRoute(quotes, [lands(0n), odd, refused], pools)).toBeUndefined();
  });
});
