/** The bench's statistics: medians, and whether two sides' figures really differ. */

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * One-sided Mann–Whitney U test that `b`'s figures are larger than `a`'s, by the normal
 * approximation with continuity correction (ties count a half): small `p` means they are.
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): { u: number; p: number } {
  let u = 0;
  for (const x of a) for (const y of b) u += y > x ? 1 : y === x ? 0.5 : 0;
  const mean = (a.length * b.length) / 2;
  const sd = Math.sqrt((a.length * b.length * (a.length + b.length + 1)) / 12);
  const z = (u - mean - 0.5) / sd;
  return { u, p: 1 - normalCdf(z) };
}

/** Φ(z), by the Abramowitz–Stegun approximation 26.2.17 (error below 7.5e-8). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const poly =
    t *
    (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = (Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI)) * poly;
  return z >= 0 ? 1 - tail : tail;
}
