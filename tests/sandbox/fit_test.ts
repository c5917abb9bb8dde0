/**
 * The complexity decision on timings built by formula (no processes): the
 * rule that lets the largest sizes overrule a fit that settles below them.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  decide,
  fitAll,
  regimeStep,
  topUndecided,
} from "../../lib/sandbox/_fit.ts";
import {
  DEFAULT_METHOD,
  methodFor,
} from "../../lib/sandbox/complexity_method.ts";
import type { ComplexityPoint } from "../../lib/sandbox/types.ts";

const SIZES = Array.from({ length: 12 }, (_, i) => 8 * 2 ** i);
const series = (ms: (n: number) => number): ComplexityPoint[] =>
  SIZES.map((n) => ({ n, ms: ms(n) }));
const classOf = (points: ComplexityPoint[]) => decide(points, fitAll(points));
/** Measured [n, ms] rows as points. */
const measured = (rows: number[][]): ComplexityPoint[] =>
  rows.map(([n, ms]) => ({ n: n!, ms: ms! }));

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

Deno.test("a memmove's quadratic top that no class fits over every size is named by the top slope", () => {
  // string prepending in native Python (a copy per prepend), measured:
  // linear up to 1,024, n^1.8 from 16,384 up; over all the sizes no
  // steeper class fits within the error limit, so the top slope names it
  const points = measured([
    [32, 0.000815],
    [64, 0.00151],
    [128, 0.00303],
    [256, 0.00609],
    [512, 0.013],
    [1024, 0.0307],
    [2048, 0.0818],
    [4096, 0.244],
    [8192, 0.702],
    [16384, 2.14],
    [32768, 6.9],
    [65536, 23.7],
    [131072, 86.5],
  ]);
  const fits = fitAll(points);
  assert.ok(
    fits.find((f) => f.class === "O(n^2)")!.error > 0.4,
    "no quadratic fit within the error limit: the fallback is what decides",
  );
  const d = decide(points, fits);
  assert.equal(d.class, "O(n^2)", d.reason);
  assert.match(d.reason, /the top sizes grow as n\^1\.[78]/);
  // the same series cut at 16,384 (the default sizes) is not yet decided
  const cut = points.filter((p) => p.n <= 16384);
  assert.notEqual(decide(cut, fitAll(cut)).class, "O(n^2)");
  assert.equal(topUndecided(cut), true);
  assert.equal(topUndecided(points), false);
});

Deno.test("topUndecided: only a steep last step the top rule has not yet settled", () => {
  // clean classes: nothing to settle (n^2 and n^3 already pass the rule)
  for (
    const ms of [
      (n: number) => 1e-5 * n,
      (n: number) => 1e-6 * n * Math.log2(n),
      (n: number) => 1e-8 * n * n,
      (n: number) => 1e-10 * n * n * n,
    ]
  ) {
    assert.equal(topUndecided(series(ms)), false);
  }
  // first_redundant_link's naive solution up to 8,192 (a fresh [False] * n
  // per edge): n^1.6, then n^1.74
  const frl = measured([
    [512, 0.545],
    [1024, 1.46],
    [2048, 3.9],
    [4096, 11.8],
    [8192, 40.2],
  ]);
  assert.equal(topUndecided(frl), true);
  assert.equal(topUndecided(frl.slice(0, 4)), false, "fewer than 5 sizes");
});

Deno.test("a steep top that no steeper class fits is named by its slope only where asked (not JavaScript)", () => {
  // lca_queries' JavaScript reference, measured: n log n to 4,096, then
  // V8's large-object step (3.5×, then 12× per doubling)
  const points = measured([
    [8, 0.000927],
    [16, 0.00158],
    [32, 0.00293],
    [64, 0.0058],
    [128, 0.0118],
    [256, 0.0258],
    [512, 0.054],
    [1024, 0.118],
    [2048, 0.2875],
    [4096, 0.693],
    [8192, 2.456],
    [16384, 29.36],
  ]);
  const fits = fitAll(points);
  assert.ok(fits.find((f) => f.class === "O(n^2)")!.error > 0.4);
  assert.equal(decide(points, fits).class, "O(n^2)");
  const js = decide(points, fits, { ...DEFAULT_METHOD, topBySlope: false });
  assert.equal(js.class, "O(n log n)", js.reason);
  assert.doesNotMatch(js.reason, /top sizes grow/);
});

Deno.test("a lone step of V8 changing regime is decided above it, where asked (JavaScript)", () => {
  // next_greater_distance's JavaScript reference, measured: 3-6 ns per
  // element up to 1,024, then 16-17 ns, flat (from n = 256 on in a fresh
  // worker it is 16 ns at every size)
  const points = measured([
    [8, 3.906e-5],
    [16, 5.841e-5],
    [32, 1.044e-4],
    [64, 2.576e-4],
    [128, 6.304e-4],
    [256, 0.0012],
    [512, 0.00252],
    [1024, 0.006102],
    [2048, 0.03381],
    [4096, 0.06669],
    [8192, 0.1389],
    [16384, 0.2795],
  ]);
  const fits = fitAll(points);
  assert.equal(decide(points, fits).class, "O(n log n)");
  assert.equal(regimeStep(points)?.n, 2048);
  const js = decide(points, fits, methodFor("deno"));
  assert.equal(js.class, "O(n)", js.reason);
  assert.match(js.reason, /the 4 sizes from n = 2048, above a lone step/);
  // merge_piles_cost's reference: a 2.3x step at 2,048, n log n above it
  const merge = measured([
    [8, 1.747e-4],
    [16, 4.666e-4],
    [32, 0.001092],
    [64, 0.002516],
    [128, 0.005727],
    [256, 0.01315],
    [512, 0.02916],
    [1024, 0.06481],
    [2048, 0.3045],
    [4096, 0.764],
    [8192, 1.977],
    [16384, 4.298],
  ]);
  assert.equal(regimeStep(merge)?.n, 2048);
  const m = decide(merge, fitAll(merge), methodFor("deno"));
  assert.equal(m.class, "O(n log n)", m.reason);
  // not lone steps: a quadratic top, a clean n^2, too few sizes above
  const lca = measured([
    [8, 0.000927],
    [16, 0.00158],
    [32, 0.00293],
    [64, 0.0058],
    [128, 0.0118],
    [256, 0.0258],
    [512, 0.054],
    [1024, 0.118],
    [2048, 0.2875],
    [4096, 0.693],
    [8192, 2.456],
    [16384, 29.36],
  ]);
  assert.equal(regimeStep(lca), null);
  assert.equal(regimeStep(series((n) => 1e-6 * n * n)), null);
  assert.equal(
    regimeStep(series((n) => (n >= 4096 ? 3 : 1) * 1e-5 * n)),
    null,
  );
  assert.equal(
    regimeStep(series((n) => (n >= 2048 ? 3 : 1) * 1e-5 * n))?.n,
    2048,
  );
});
