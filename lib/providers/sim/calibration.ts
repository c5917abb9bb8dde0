/**
 * The difficulty → pass-rate curve the sim's arithmetic is calibrated on.
 *
 * Anchors: the sanand0/llmmath average pass rates of about 50 models, no
 * tools, on products of two n-digit numbers: 96, 86, 66, 58, 24, 10 and 0%
 * for n = 2, 3, 4, 5, 6, 7, 9. Between anchors the curve is a monotone
 * cubic (Fritsch–Carlson) so non-integer effective sizes (a 3×5-digit
 * product, profile shifts) interpolate smoothly. Written by hand: mathjs
 * has no monotone interpolation and the curve is 9 points.
 *
 * @module
 */

/** The anchor points: [effective digits, pass rate]. n = 0, 1, 8 are added. */
export const LLMMATH_AVERAGE: readonly (readonly [number, number])[] = [
  [0, 0.999],
  [1, 0.995],
  [2, 0.96],
  [3, 0.86],
  [4, 0.66],
  [5, 0.58],
  [6, 0.24],
  [7, 0.10],
  [8, 0.03],
  [9, 0],
];

const XS = LLMMATH_AVERAGE.map((p) => p[0]);
const YS = LLMMATH_AVERAGE.map((p) => p[1]);
const TANGENTS = monotoneTangents(XS, YS);

function monotoneTangents(xs: number[], ys: number[]): number[] {
  const n = xs.length;
  const delta: number[] = [];
  for (let i = 0; i < n - 1; i++) {
    delta.push((ys[i + 1]! - ys[i]!) / (xs[i + 1]! - xs[i]!));
  }
  const m: number[] = [delta[0]!];
  for (let i = 1; i < n - 1; i++) {
    const a = delta[i - 1]!, b = delta[i]!;
    m.push(a * b <= 0 ? 0 : (a + b) / 2);
  }
  m.push(delta[n - 2]!);
  for (let i = 0; i < n - 1; i++) {
    const d = delta[i]!;
    if (d === 0) {
      m[i] = 0;
      m[i + 1] = 0;
      continue;
    }
    const a = m[i]! / d, b = m[i + 1]! / d;
    const s = a * a + b * b;
    if (s > 9) {
      const t = 3 / Math.sqrt(s);
      m[i] = t * a * d;
      m[i + 1] = t * b * d;
    }
  }
  return m;
}

/**
 * The calibrated pass rate of `sim-average` on a problem of `n` effective
 * digits (an n×n-digit product has n effective digits).
 *
 * @param n Effective size; below 0 counts as 0, above 9 as 9.
 * @returns A probability in [0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { averagePassRate } from "./mod.ts";
 *
 * assert.equal(averagePassRate(4), 0.66);
 * const mid = averagePassRate(4.5);
 * assert.ok(mid < 0.66 && mid > 0.58);
 * assert.equal(averagePassRate(12), 0);
 * ```
 */
export function averagePassRate(n: number): number {
  if (!(n > 0)) return YS[0]!;
  const last = XS.length - 1;
  if (n >= XS[last]!) return YS[last]!;
  const i = Math.floor(n);
  const x0 = XS[i]!, x1 = XS[i + 1]!;
  const y0 = YS[i]!, y1 = YS[i + 1]!;
  const h = x1 - x0, t = (n - x0) / h;
  const t2 = t * t, t3 = t2 * t;
  const y = (2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * h * TANGENTS[i]! +
    (-2 * t3 + 3 * t2) * y1 + (t3 - t2) * h * TANGENTS[i + 1]!;
  return Math.min(1, Math.max(0, y));
}
