/**
 * Fitting measured (n, ms) points to complexity classes, and the rules that
 * name a class. Pure functions; `measureComplexity` documents the method.
 *
 * Written here rather than taken from a library: the fits are 2-parameter
 * weighted least squares (a few lines each), and the npm regression
 * packages fit y = a·x^b or polynomials, not t = a + b·f(n) with a, b ≥ 0
 * and relative weights, which is what the decision needs.
 *
 * @module
 */
import type { ClassFit, ComplexityClass, ComplexityPoint } from "./types.ts";

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
 * worst fifth of the points (a disturbed size, or a JIT fast path at tiny
 * n, must not decide the class), refits, and returns a, b and the root mean
 * squared relative error over the points kept.
 */
export function fitModel(
  points: ComplexityPoint[],
  f: (n: number) => number,
): { a: number; b: number; error: number } {
  const rel = (p: ComplexityPoint, a: number, b: number) =>
    Math.abs((a + b * f(p.n) - p.ms) / p.ms);
  let { a, b } = leastSquares(points, f);
  let kept = points;
  const drop = Math.floor(points.length / 5);
  if (drop > 0) {
    kept = [...points].sort((x, y) => rel(x, a, b) - rel(y, a, b))
      .slice(0, points.length - drop);
    ({ a, b } = leastSquares(kept, f));
  }
  const se = kept.reduce((s, p) => s + rel(p, a, b) ** 2, 0);
  const error = Math.sqrt(se / kept.length);
  return { a, b, error: Number.isFinite(error) ? error : Infinity };
}

/** Exponential fit t = a + b·c^n over a grid of bases c (1.2 … 3). */
export function fitExponential(
  points: ComplexityPoint[],
): { a: number; b: number; error: number; base: number } {
  let best = { a: 0, b: 0, error: Infinity, base: 2 };
  const maxN = Math.max(...points.map((p) => p.n));
  if (maxN > 200) return best;
  for (let c = 1.2; c <= 3.0001; c += 0.05) {
    const fit = fitModel(points, (n) => Math.pow(c, n));
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
 * The points the fit uses: sizes below 32 are left out when at least five
 * larger sizes were measured (tiny inputs take special paths: insertion
 * sort for short runs in both CPython's and V8's TimSort, fixed call costs).
 */
export function fitPoints(points: ComplexityPoint[]): ComplexityPoint[] {
  const large = points.filter((p) => p.n >= 32);
  return large.length >= 5 ? large : points;
}

/** Every class's fit, best (lowest error) first. */
export function fitAll(all: ComplexityPoint[]): ClassFit[] {
  const points = fitPoints(all);
  const fits: ClassFit[] = MODELS.map(([cls, f]) => {
    const { a, b, error } = fitModel(points, f);
    return { class: cls, error, a, b };
  });
  const e = fitExponential(points);
  fits.push({ class: "O(2^n)", error: e.error, a: e.a, b: e.b });
  return fits.sort((x, y) =>
    x.error - y.error || RANK[x.class] - RANK[y.class]
  );
}

/** Relative slack within which a simpler class wins over a better fit. */
const SLACK = 1.25;
const SLACK_ABS = 0.02;
/**
 * A fitted curve that grows by less than this factor over the whole size
 * range is called O(1): cache and allocator effects alone give that much.
 */
const FLAT = 1.25;
/** A best fit worse than this (RMS relative error) is "unknown". */
const MAX_ERROR = 0.4;

/**
 * The share of the sizes (the smallest ones) on which an O(n log n) call
 * is checked against O(n).
 */
const LOWER_SHARE = 0.6;

/** Options of {@linkcode decide} (for experiments; the defaults are the method). */
export interface DecideOptions {
  /**
   * Share of the sizes, smallest first, over which an O(n log n) decision
   * is checked against O(n) (0 turns the check off). @default 0.6
   */
  lowerShare?: number;
  /**
   * Whether a steep top with no class above n log n fitting within the
   * error limit is named by its slope (n², or n³ from n^2.8). Off for
   * JavaScript, where V8's large-object step makes the last two steps of
   * linear or n log n code that steep (lca_queries' reference: n^1.8–2.1,
   * the n² fit's error 0.40–0.42). @default true
   */
  topBySlope?: boolean;
  /**
   * Whether one lone step of a JIT changing regime is looked for (see
   * {@linkcode regimeStep}); the class is then decided on the sizes above
   * it. On for JavaScript only. @default false
   */
  jitStep?: boolean;
}

/** The decision: class, whether it was a close call, and why. */
export interface Decision {
  class: ComplexityClass;
  ambiguous: boolean;
  reason: string;
}

/**
 * Names a class from the fits: the simplest class whose error is within
 * ×1.25 (+0.02) of the best; "unknown" when the best error is above 0.4 or
 * there are fewer than 4 points. A close call is a runner-up within the
 * slack that is not the chosen class's neighbour O(n)/O(n log n).
 */
export function decide(
  points: ComplexityPoint[],
  fits: ClassFit[],
  options: DecideOptions = {},
): Decision {
  const { lowerShare = LOWER_SHARE, topBySlope = true, jitStep = false } =
    options;
  if (points.length < 4) {
    return {
      class: "unknown",
      ambiguous: false,
      reason: `only ${points.length} sizes measured (need 4)`,
    };
  }
  if (jitStep) {
    // A step only adds growth: the sizes above it may lower the class,
    // never raise it (four sizes with a high first one fit n² too).
    const whole = decide(points, fits, { ...options, jitStep: false });
    const step = regimeStep(points);
    if (step === null) return whole;
    const above = fitPoints(points).filter((p) => p.n >= step.n);
    const d = decide(above, fitAll(above), { ...options, jitStep: false });
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
  if (!(best.error <= MAX_ERROR)) {
    return {
      class: "unknown",
      ambiguous: true,
      reason: `no class fits: best ${best.class} has relative error ${
        best.error.toFixed(2)
      }`,
    };
  }
  const line = best.error * SLACK + SLACK_ABS;
  const close = fits.filter((f) => f.error <= line);
  let chosen = close.reduce((s, f) => RANK[f.class] < RANK[s.class] ? f : s);
  const used = fitPoints(points);
  const lo = Math.min(...used.map((p) => p.n));
  const hi = Math.max(...used.map((p) => p.n));
  if (chosen.class !== "O(1)" && chosen.class !== "O(2^n)") {
    const g = (n: number) => chosen.a + chosen.b * growthAt(chosen.class, n);
    if (g(hi) / g(lo) < FLAT) {
      const flat = fits.find((f) => f.class === "O(1)")!;
      if (flat.error <= MAX_ERROR) chosen = flat;
    }
  }
  let lowNote = "";
  if (chosen.class === "O(n log n)" && lowerShare > 0) {
    // Memory effects (data outgrowing a cache) make linear code slow down
    // per element at large n, in steps; a log factor shows at every size.
    // Linear wins when it fits the lower sizes as well as n log n does.
    const lower = used.slice(
      0,
      Math.max(5, Math.ceil(used.length * lowerShare)),
    );
    if (lower.length < used.length) {
      const linear = fitModel(lower, (n) => n);
      const loglinear = fitModel(lower, (n) => n * lg(n));
      if (linear.error <= loglinear.error * SLACK + SLACK_ABS) {
        const f = fits.find((x) => x.class === "O(n)")!;
        if (f.error <= MAX_ERROR) {
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
  // the last two steps (a span of 4× or more) grows as n^1.7 or steeper, the
  // best-fitting class above n log n is taken (JavaScript's insert at the
  // front: n^2.6–2.7 per step at the top, measured as O(n log n) before; the
  // steepest top slope of a correct n log n program here was 1.2, a cache
  // effect; a single slow top point, as a deoptimisation gives, is one step).
  let topNote = "";
  const topSlope = slopeOverTop(used);
  const steeper = fits.filter((f) =>
    RANK[f.class] > RANK["O(n log n)"] && f.class !== "O(2^n)" &&
    f.error <= MAX_ERROR
  );
  if (
    RANK[chosen.class] <= RANK["O(n log n)"] && topSlope >= TOP_SLOPE &&
    (steeper.length > 0 || topBySlope)
  ) {
    // None fits every size (the linear part below still weighs on the
    // fit): the top slope names the class.
    const byTop = fits.find((f) =>
      f.class === (topSlope >= CUBIC_TOP_SLOPE ? "O(n^3)" : "O(n^2)")
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
      (f.class !== "O(2^n)" && f.b * growthAt(f.class, maxF) < 0.02 * f.a)) &&
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
 * n^minSlope or steeper, but the last two not both as steeply as the rule
 * asks (then one more size may settle it; a clean n² or n³ needs none).
 */
export function topUndecided(
  points: ComplexityPoint[],
  minSlope: number,
): boolean {
  const sorted = [...points].sort((x, y) => x.n - y.n);
  if (sorted.length < 5) return false;
  const [b, c] = sorted.slice(-2) as [ComplexityPoint, ComplexityPoint];
  const last = Math.log(c.ms / b.ms) / Math.log(c.n / b.n);
  const top = slopeOverTop(sorted);
  return last >= minSlope && !(top >= TOP_SLOPE);
}

/**
 * A lone step in a series where V8 changes regime: one doubling that grows
 * as n^2 or steeper, 0.8 or more above the median of the other steps, no
 * other step as steep as the top-size rule's n^1.7, the step after it not
 * falling back (0.4 or more below the median: one slow point, a spike),
 * and at least `REGIME_SIDE` sizes (from 32) on either side. Returns the
 * first size above the step, or null.
 *
 * Why: V8 optimises a function for the inputs it has seen, and the small
 * sizes come first. next_greater_distance's JavaScript reference (a stack
 * over `forEach`) runs at 3–6 ns per element up to n = 1,024 and at
 * 16–17 ns from 2,048 on, flat; measured from n = 256 (a fresh worker)
 * it is 15.5–16 ns at every size. The fast regime's own rise (3.3 to 6 ns)
 * made the whole series O(n log n) in 4 of 5 runs. Above the step the
 * program runs as it does on large inputs, which is what the class is
 * about. merge_piles_cost's (2.3× at 2,048) and primes_count_and_sum's
 * (2.9× at 4,096) references have such steps too. A quadratic top (every
 * step above n^1.7) and V8's large-object step at the top (two steep steps
 * or too few sizes above) are not lone steps.
 */
export function regimeStep(
  points: ComplexityPoint[],
): { n: number; slope: number } | null {
  const used = fitPoints([...points].sort((x, y) => x.n - y.n));
  if (used.length < 2 * REGIME_SIDE) return null;
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
    !(slope >= 2 && slope - median >= 0.8) ||
    // one slow point (a collection) is a spike: the next step falls back
    !(slopes[at + 1]! >= median - 0.4) ||
    others.some((s) => s >= TOP_SLOPE) ||
    below < REGIME_SIDE || used.length - below < REGIME_SIDE
  ) return null;
  return { n: used[at + 1]!.n, slope };
}

/** Sizes needed on either side of a {@linkcode regimeStep}. */
const REGIME_SIDE = 4;

/** See the top-size rule in {@linkcode decide}. */
const TOP_SLOPE = 1.7;
/** A top slope from which the rule's fallback says n³ rather than n². */
const CUBIC_TOP_SLOPE = 2.8;

/**
 * The lesser log-log slope of the last two steps, third-largest size to
 * second-largest and on to the largest (NaN with fewer than 5 sizes or a
 * span under 4×): both steps must be steep, so one slow point at the top
 * (a JIT deoptimisation, a collection) does not make a program quadratic.
 */
function slopeOverTop(points: ComplexityPoint[]): number {
  if (points.length < 5) return NaN;
  const sorted = [...points].sort((x, y) => x.n - y.n);
  const [a, b, c] = sorted.slice(-3) as [
    ComplexityPoint,
    ComplexityPoint,
    ComplexityPoint,
  ];
  if (c.n < 4 * a.n) return NaN;
  const slope = (p: ComplexityPoint, q: ComplexityPoint) =>
    Math.log(q.ms / p.ms) / Math.log(q.n / p.n);
  return Math.min(slope(a, b), slope(b, c));
}
