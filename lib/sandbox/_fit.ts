/**
 * Fitting measured (n, ms) points to complexity classes, and the rules that
 * name a class. Pure functions; every threshold comes from a
 * {@linkcode ComplexityMethod} (`complexity_method.ts`), the defaults when
 * none is given.
 *
 * Written here rather than taken from a library: the fits are 2-parameter
 * weighted least squares (a few lines each), and the npm regression
 * packages fit y = a·x^b or polynomials, not t = a + b·f(n) with a, b ≥ 0
 * and relative weights, which is what the decision needs.
 *
 * @module
 */
import type { ClassFit, ComplexityClass, ComplexityPoint } from "./types.ts";
import { type ComplexityMethod, DEFAULT_METHOD } from "./complexity_method.ts";

const lg = (n: number) => Math.log2(Math.max(n, 2));

/** Polynomial-type models, simplest first. */
const MODELS: [ComplexityClass, (n: number) => number][] = [
  ["O(1)", () => 1],
  ["O(log n)", lg],
  ["O(n)", (n) => n],
  ["O(n log n)", (n) => n * lg(n)],
  ["O(n^2)", (n) => n * n],
  ["O(n^3)", (n) => n * n * n],
];

function growthAt(cls: ComplexityClass, n: number): number {
  return MODELS.find(([c]) => c === cls)?.[1](n) ?? Infinity;
}

/** Rank of each class (simpler = lower). */
export const RANK: Record<ComplexityClass, number> = {
  "O(1)": 0,
  "O(log n)": 1,
  "O(n)": 2,
  "O(n log n)": 3,
  "O(n^2)": 4,
  "O(n^3)": 5,
  "O(2^n)": 6,
  "unknown": 7,
};

/** Weighted (1/t²) least squares of t = a + b·f(n) with a, b ≥ 0. */
function leastSquares(
  points: ComplexityPoint[],
  f: (n: number) => number,
): { a: number; b: number } {
  let sw = 0, swf = 0, swff = 0, swt = 0, swft = 0;
  for (const { n, ms } of points) {
    const w = 1 / (ms * ms);
    const x = f(n);
    sw += w;
    swf += w * x;
    swff += w * x * x;
    swt += w * ms;
    swft += w * x * ms;
  }
  const det = sw * swff - swf * swf;
  let a = det !== 0 ? (swff * swt - swf * swft) / det : swt / sw;
  let b = det !== 0 ? (sw * swft - swf * swt) / det : 0;
  if (!(b >= 0) || !Number.isFinite(b)) {
    b = 0;
    a = swt / sw;
  } else if (!(a >= 0)) {
    a = 0;
    b = swff > 0 ? swft / swff : 0;
  }
  return { a, b };
}

/**
 * Fits t = a + b·f(n) (relative weights, a, b ≥ 0), then leaves out the
 * worst-fitting point in every `method.dropOneIn` (a disturbed size, or a
 * JIT fast path at tiny n, must not decide the class), refits, and returns
 * a, b and the root mean squared relative error over the points kept.
 */
export function fitModel(
  points: ComplexityPoint[],
  f: (n: number) => number,
  method: ComplexityMethod = DEFAULT_METHOD,
): { a: number; b: number; error: number } {
  const rel = (p: ComplexityPoint, a: number, b: number) =>
    Math.abs((a + b * f(p.n) - p.ms) / p.ms);
  let { a, b } = leastSquares(points, f);
  let kept = points;
  const drop = Math.floor(points.length / method.dropOneIn);
  if (drop > 0) {
    kept = [...points].sort((x, y) => rel(x, a, b) - rel(y, a, b))
      .slice(0, points.length - drop);
    ({ a, b } = leastSquares(kept, f));
  }
  const se = kept.reduce((s, p) => s + rel(p, a, b) ** 2, 0);
  const error = Math.sqrt(se / kept.length);
  return { a, b, error: Number.isFinite(error) ? error : Infinity };
}

/** Exponential fit t = a + b·c^n over the method's grid of bases c. */
export function fitExponential(
  points: ComplexityPoint[],
  method: ComplexityMethod = DEFAULT_METHOD,
): { a: number; b: number; error: number; base: number } {
  let best = { a: 0, b: 0, error: Infinity, base: 2 };
  const maxN = Math.max(...points.map((p) => p.n));
  if (maxN > method.exponentialMaxN) return best;
  for (const c of method.exponentialBases) {
    const fit = fitModel(points, (n) => Math.pow(c, n), method);
    if (fit.b > 0 && fit.error < best.error) best = { ...fit, base: c };
  }
  return best;
}

/** Slope of log t vs log n over the upper half of the points. */
export function logSlope(points: ComplexityPoint[]): number {
  const upper = points.slice(Math.floor(points.length / 2));
  if (upper.length < 2) return NaN;
  const xs = upper.map((p) => Math.log(p.n));
  const ys = upper.map((p) => Math.log(p.ms));
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const my = ys.reduce((s, y) => s + y, 0) / ys.length;
  let num = 0, den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den > 0 ? num / den : NaN;
}

/**
 * The points the fit uses: sizes below `method.fitMinN` are left out when
 * at least `method.fitMinLarge` larger sizes were measured (tiny inputs
 * take special paths: insertion sort for short runs in both CPython's and
 * V8's TimSort, fixed call costs).
 */
export function fitPoints(
  points: ComplexityPoint[],
  method: ComplexityMethod = DEFAULT_METHOD,
): ComplexityPoint[] {
  const large = points.filter((p) => p.n >= method.fitMinN);
  return large.length >= method.fitMinLarge ? large : points;
}

/** Every class's fit, best (lowest error) first. */
export function fitAll(
  all: ComplexityPoint[],
  method: ComplexityMethod = DEFAULT_METHOD,
): ClassFit[] {
  const points = fitPoints(all, method);
  const fits: ClassFit[] = MODELS.map(([cls, f]) => {
    const { a, b, error } = fitModel(points, f, method);
    return { class: cls, error, a, b };
  });
  const e = fitExponential(points, method);
  fits.push({ class: "O(2^n)", error: e.error, a: e.a, b: e.b });
  return fits.sort((x, y) =>
    x.error - y.error || RANK[x.class] - RANK[y.class]
  );
}

/** The decision: class, whether it was a close call, and why. */
export interface Decision {
  class: ComplexityClass;
  ambiguous: boolean;
  reason: string;
}

/**
 * Names a class from the fits: the simplest class whose error is within
 * ×`slack` (+`slackAbs`) of the best; "unknown" when the best error is
 * above `maxError` or there are fewer than `minSizes` points. A close call
 * is a runner-up within the slack that is not the chosen class's neighbour
 * O(n)/O(n log n). Then the rules, each with its threshold in the method:
 * a flat curve is O(1); an O(n log n) linear over the lower sizes is O(n);
 * a steep top names a class above n log n; with `jitStep`, one lone step
 * of a JIT changing regime is looked past.
 *
 * @param points The measured sizes and times.
 * @param fits {@linkcode fitAll} of the points, with the same method.
 * @param method The thresholds (a backend's: `methodFor(backend)`).
 * @returns The class, whether it was a close call, and why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decide, fitAll } from "./_fit.ts";
 *
 * const points = [64, 128, 256, 512, 1024, 2048].map((n) => ({ n, ms: 1e-4 * n }));
 * assert.deepEqual(decide(points, fitAll(points)).class, "O(n)");
 * ```
 */
export function decide(
  points: ComplexityPoint[],
  fits: ClassFit[],
  method: ComplexityMethod = DEFAULT_METHOD,
): Decision {
  const { lowerShare, topBySlope, jitStep, maxError, slack, slackAbs } = method;
  if (points.length < method.minSizes) {
    return {
      class: "unknown",
      ambiguous: false,
      reason: `only ${points.length} sizes measured (need ${method.minSizes})`,
    };
  }
  if (jitStep) {
    // A step only adds growth: the sizes above it may lower the class,
    // never raise it (four sizes with a high first one fit n² too).
    const once = { ...method, jitStep: false };
    const whole = decide(points, fits, once);
    const step = regimeStep(points, method);
    if (step === null) return whole;
    const above = fitPoints(points, method).filter((p) => p.n >= step.n);
    const d = decide(above, fitAll(above, method), once);
    if (RANK[d.class] >= RANK[whole.class]) return whole;
    return {
      ...d,
      reason:
        `${d.reason}; decided on the ${above.length} sizes from n = ${step.n}, above a lone step of n^${
          step.slope.toFixed(2)
        } (a JIT changing regime; over every size ${whole.class})`,
    };
  }
  const best = fits[0]!;
  if (!(best.error <= maxError)) {
    return {
      class: "unknown",
      ambiguous: true,
      reason: `no class fits: best ${best.class} has relative error ${
        best.error.toFixed(2)
      }`,
    };
  }
  const line = best.error * slack + slackAbs;
  const close = fits.filter((f) => f.error <= line);
  let chosen = close.reduce((s, f) => RANK[f.class] < RANK[s.class] ? f : s);
  const used = fitPoints(points, method);
  const lo = Math.min(...used.map((p) => p.n));
  const hi = Math.max(...used.map((p) => p.n));
  if (chosen.class !== "O(1)" && chosen.class !== "O(2^n)") {
    const g = (n: number) => chosen.a + chosen.b * growthAt(chosen.class, n);
    if (g(hi) / g(lo) < method.flat) {
      const flat = fits.find((f) => f.class === "O(1)")!;
      if (flat.error <= maxError) chosen = flat;
    }
  }
  let lowNote = "";
  if (chosen.class === "O(n log n)" && lowerShare > 0) {
    // Memory effects (data outgrowing a cache) make linear code slow down
    // per element at large n, in steps; a log factor shows at every size.
    // Linear wins when it fits the lower sizes as well as n log n does.
    const lower = used.slice(
      0,
      Math.max(method.lowerMinSizes, Math.ceil(used.length * lowerShare)),
    );
    if (lower.length < used.length) {
      const linear = fitModel(lower, (n) => n, method);
      const loglinear = fitModel(lower, (n) => n * lg(n), method);
      if (linear.error <= loglinear.error * slack + slackAbs) {
        const f = fits.find((x) => x.class === "O(n)")!;
        if (f.error <= maxError) {
          chosen = f;
          lowNote = `; linear over the lower sizes (up to n = ${
            lower.at(-1)!.n
          }: ${linear.error.toFixed(3)} vs n log n ${
            loglinear.error.toFixed(3)
          }), so the rise above is taken for a memory effect`;
        }
      }
    }
  }
  // A quadratic term with a small constant (the memmove of `insert(0)` or
  // `unshift`) leaves the lower sizes linear, and a fit over every size
  // settles below it; the largest sizes show the asymptote. Where each of
  // the last two steps grows as n^topSlope or steeper, the best-fitting
  // class above n log n is taken (a single slow top point, as a
  // deoptimisation gives, is one step).
  let topNote = "";
  const topSlope = slopeOverTop(used, method);
  const steeper = fits.filter((f) =>
    RANK[f.class] > RANK["O(n log n)"] && f.class !== "O(2^n)" &&
    f.error <= maxError
  );
  if (
    RANK[chosen.class] <= RANK["O(n log n)"] && topSlope >= method.topSlope &&
    (steeper.length > 0 || topBySlope)
  ) {
    // None fits every size (the linear part below still weighs on the
    // fit): the top slope names the class.
    const byTop = fits.find((f) =>
      f.class === (topSlope >= method.cubicTopSlope ? "O(n^3)" : "O(n^2)")
    )!;
    const was = chosen.class;
    chosen = steeper[0] ?? byTop;
    lowNote = "";
    topNote = `; the top sizes grow as n^${
      topSlope.toFixed(2)
    }, steeper than ${was}`;
  }
  const pair = new Set<ComplexityClass>(["O(n)", "O(n log n)"]);
  const maxF = Math.max(...points.map((p) => p.n));
  const rivals = close.filter((f) =>
    f.class !== chosen.class &&
    // a fit whose growth term is negligible is O(1) under another name
    !(f.b === 0 ||
      (f.class !== "O(2^n)" &&
        f.b * growthAt(f.class, maxF) < method.negligibleGrowth * f.a)) &&
    !(pair.has(f.class) && pair.has(chosen.class))
  );
  return {
    class: chosen.class,
    ambiguous: rivals.length > 0,
    reason: `${chosen.class} fits with relative error ${
      chosen.error.toFixed(3)
    } (best ${best.class} ${best.error.toFixed(3)})${
      rivals.length
        ? `; close: ${
          rivals.map((r) => `${r.class} ${r.error.toFixed(3)}`).join(", ")
        }`
        : ""
    }${lowNote}${topNote}`,
  };
}

/**
 * Whether the top-size rule is still undecided: the last step grew as
 * n^extendSlope or steeper, but the last two not both as steeply as the
 * rule asks (then one more size may settle it; a clean n² or n³ needs
 * none).
 */
export function topUndecided(
  points: ComplexityPoint[],
  method: ComplexityMethod = DEFAULT_METHOD,
): boolean {
  const sorted = [...points].sort((x, y) => x.n - y.n);
  if (sorted.length < method.topMinSizes) return false;
  const [b, c] = sorted.slice(-2) as [ComplexityPoint, ComplexityPoint];
  const last = Math.log(c.ms / b.ms) / Math.log(c.n / b.n);
  const top = slopeOverTop(sorted, method);
  return last >= method.extendSlope && !(top >= method.topSlope);
}

/**
 * A lone step in a series where a JIT changes regime: one step of the
 * sizes that grows as n^regimeMinSlope or steeper, `regimeRise` or more
 * above the median of the other steps, no other step as steep as the
 * top-size rule's `topSlope`, the step after it not falling back
 * (`regimeFallBack` or more below the median: one slow point, a spike),
 * and at least `regimeSide` sizes (from `fitMinN`) on either side. Returns
 * the first size above the step, or null.
 *
 * Why: a JIT optimises a function for the inputs it has seen, and the
 * small sizes come first; a program can run several times faster per
 * element up to some size than from there on, flat above, while measured
 * from the larger sizes alone it runs at the slow rate everywhere. The
 * fast regime's own rise then reads as a log factor. Above the step the
 * program runs as it does on large inputs, which is what the class is
 * about. A quadratic top (every step above the top-rule slope) and a
 * large-object step at the top (two steep steps or too few sizes above)
 * are not lone steps.
 */
export function regimeStep(
  points: ComplexityPoint[],
  method: ComplexityMethod = DEFAULT_METHOD,
): { n: number; slope: number } | null {
  const side = method.regimeSide;
  const used = fitPoints([...points].sort((x, y) => x.n - y.n), method);
  if (used.length < 2 * side) return null;
  const slopes = used.slice(1).map((q, i) =>
    Math.log(q.ms / used[i]!.ms) / Math.log(q.n / used[i]!.n)
  );
  let at = 0;
  slopes.forEach((s, i) => {
    if (s > slopes[at]!) at = i;
  });
  const others = slopes.filter((_, i) => i !== at).sort((x, y) => x - y);
  const median = others[others.length >> 1]!;
  const slope = slopes[at]!;
  const below = at + 1;
  if (
    !(slope >= method.regimeMinSlope && slope - median >= method.regimeRise) ||
    // one slow point (a collection) is a spike: the next step falls back
    !(slopes[at + 1]! >= median - method.regimeFallBack) ||
    others.some((s) => s >= method.topSlope) ||
    below < side || used.length - below < side
  ) return null;
  return { n: used[at + 1]!.n, slope };
}

/**
 * The lesser log-log slope of the last two steps, third-largest size to
 * second-largest and on to the largest (NaN with fewer than `topMinSizes`
 * sizes or a span under `topMinSpan`): both steps must be steep, so one
 * slow point at the top (a JIT deoptimisation, a collection) does not make
 * a program quadratic.
 */
function slopeOverTop(
  points: ComplexityPoint[],
  method: ComplexityMethod,
): number {
  if (points.length < method.topMinSizes) return NaN;
  const sorted = [...points].sort((x, y) => x.n - y.n);
  const [a, b, c] = sorted.slice(-3) as [
    ComplexityPoint,
    ComplexityPoint,
    ComplexityPoint,
  ];
  if (c.n < method.topMinSpan * a.n) return NaN;
  const slope = (p: ComplexityPoint, q: ComplexityPoint) =>
    Math.log(q.ms / p.ms) / Math.log(q.n / p.n);
  return Math.min(slope(a, b), slope(b, c));
}
