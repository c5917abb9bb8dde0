/**
 * The complexity decision on timings built by formula (no processes): the
 * rule that lets the largest sizes overrule a fit that settles below them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { decide, fitAll } from "../../lib/sandbox/_fit.ts";
import type { ComplexityPoint } from "../../lib/sandbox/types.ts";

const SIZES = Array.from({ length: 12 }, (_, i) => 8 * 2 ** i);
const series = (ms: (n: number) => number): ComplexityPoint[] =>
  SIZES.map((n) => ({ n, ms: ms(n) }));
const classOf = (points: ComplexityPoint[]) => decide(points, fitAll(points));

Deno.test("a quadratic term with a small constant under a linear one is O(n^2)", () => {
  // insert(0)/unshift: a memmove per element, linear in the lower sizes,
  // quadratic from a few thousand (n^1.9 over the top three sizes here)
  const points = series((n) => 2e-5 * n + 2e-8 * n * n);
  const d = classOf(points);
  assert.equal(d.class, "O(n^2)");
  assert.match(d.reason, /the top sizes grow as n\^[0-9.]+, steeper than/);
});

Deno.test("a cache step at the top does not make linear or n log n code quadratic", () => {
  // per-element time 1.6× higher from 4096 up: the top slope is about 1.3
  const step = (n: number) => n >= 4096 ? 1.6 : 1;
  for (
    const [ms, allowed] of [
      [(n: number) => 1e-5 * n * step(n), ["O(n)", "O(n log n)"]],
      [(n: number) => 1e-6 * n * Math.log2(n) * step(n), [
        "O(n)",
        "O(n log n)",
      ]],
    ] as const
  ) {
    const d = classOf(series(ms));
    assert.ok(allowed.includes(d.class as never), `${d.class}: ${d.reason}`);
    assert.doesNotMatch(d.reason, /top sizes grow/);
  }
});

Deno.test("clean classes are decided as they are, the top rule silent", () => {
  const cases: [string, (n: number) => number][] = [
    ["O(n)", (n) => 1e-5 * n + 1e-3],
    ["O(n log n)", (n) => 1e-6 * n * Math.log2(n) + 1e-3],
    ["O(n^2)", (n) => 1e-8 * n * n + 1e-3],
  ];
  for (const [cls, ms] of cases) {
    const d = classOf(series(ms));
    assert.equal(d.class, cls, d.reason);
    assert.doesNotMatch(d.reason, /top sizes grow/);
  }
});

Deno.test("one slow point at the top (a deoptimisation) does not make n log n quadratic", () => {
  // count_inversions in JavaScript: clean n log n up to 1,024, then 40× at
  // 2,048 (a V8 deoptimisation loop), measured as O(n^2) by a top rule
  // that read a single step
  const points = series((n) => 1e-5 * n * Math.log2(n)).slice(0, 9);
  points.at(-1)!.ms *= 40;
  const d = classOf(points);
  assert.doesNotMatch(d.reason, /top sizes grow/);
  assert.notEqual(d.class, "O(n^2)");
});
