/**
 * Numbers as the viewer prints and tests them. No DOM.
 *
 * @module
 */

/**
 * A count with thousands separators. Written by hand: toLocaleString's
 * first call loads ICU data (tens of ms on a slow machine).
 *
 * @param x The count.
 * @returns `12,345`.
 */
export const fmt = (x: number): string =>
  String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** P(X <= m) for X ~ Binomial(n, 1/2), in log space. */
function binomTail(n: number, m: number): number {
  let logC = 0, total = 0;
  for (let i = 0; i <= m; i++) {
    if (i > 0) logC += Math.log((n - i + 1) / i);
    total += Math.exp(logC - n * Math.LN2);
  }
  return total;
}

/**
 * The exact (binomial) McNemar test's two-sided p-value. Written by hand:
 * the page embeds no statistics library, and this is one loop.
 *
 * @param b Pairs only the first got right.
 * @param c Pairs only the second got right.
 * @returns The p-value.
 */
export const mcnemar = (b: number, c: number): number =>
  b + c === 0 ? 1 : Math.min(1, 2 * binomTail(b + c, Math.min(b, c)));
