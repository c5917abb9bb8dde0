/**
 * The Pareto frontier of points where lower `cost` and higher `value` are
 * better: the points no other point beats on both. Sorted by cost.
 *
 * @param points Items to filter.
 * @param axes `cost` reads the cost (e.g. mean tokens); `value` reads the
 *   value (e.g. accuracy).
 * @returns The frontier, cheapest first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paretoFrontier } from "./mod.ts";
 *
 * const pts = [{ c: 1, v: 0.5 }, { c: 2, v: 0.4 }, { c: 3, v: 0.9 }];
 * assert.deepEqual(paretoFrontier(pts, { cost: (p) => p.c, value: (p) => p.v }), [pts[0], pts[2]]);
 * ```
 */
export function paretoFrontier<T>(
  points: readonly T[],
  { cost, value }: { cost: (p: T) => number; value: (p: T) => number },
): T[] {
  const sorted = [...points].sort((a, b) =>
    cost(a) - cost(b) || value(b) - value(a)
  );
  const out: T[] = [];
  let best = -Infinity;
  for (const p of sorted) {
    if (value(p) > best) {
      out.push(p);
      best = value(p);
    }
  }
  return out;
}
