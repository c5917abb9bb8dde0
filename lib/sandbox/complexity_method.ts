/**
 * The complexity method: every threshold `measureComplexity` uses to grow
 * its sizes and to name a class, in one declared object, and the
 * per-backend differences as partial overrides of it.
 *
 * The values were chosen on the "tune" half of the known-class bank
 * (`tests/suites/code/_known_classes.ts`); the measured agreement, on both
 * halves, is in `docs/complexity.md`.
 *
 * @example Merge a backend's overrides into the defaults
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_METHOD, methodFor } from "./complexity_method.ts";
 *
 * assert.deepEqual(methodFor("native"), DEFAULT_METHOD);
 * assert.deepEqual(methodFor("deno").jitStep, true);
 * assert.deepEqual(methodFor("deno", { maxError: 0.5 }).maxError, 0.5);
 * ```
 *
 * @module
 */
import type { Backend } from "./_backend.ts";

/** The thresholds of the complexity measurement and decision. */
export interface ComplexityMethod {
  // ---- sizes and sampling (`_measure.ts`) ----
  /** Sizes measured by default: 8 doubling to 16,384, wide enough for n³ to stay in budget and for a log factor to show. */
  readonly sizes: readonly number[];
  /** Budget of one size's samples, ms: a size whose predicted samples exceed it ends the series. @default 100 */
  readonly budgetMs: number;
  /** Timed samples per size (the minimum counts: load only adds time). @default 3 */
  readonly repeats: number;
  /** Shortest timed sample, ms: short calls are repeated within a sample until it lasts this long. @default 1 */
  readonly minSampleMs: number;
  /** Wall-time limit of one series, ms, unless the request sets one. @default 60_000 */
  readonly timeoutMs: number;
  /** Smallest time recorded for a size, ms (a zero would break the relative fits). @default 1e-7 */
  readonly minMs: number;
  /** Guess of the first size's call time, ms, before any was measured. @default 100 */
  readonly firstCallMs: number;
  /** A sample's deadline is at least this, ms (start-up and collections). @default 1_000 */
  readonly sampleLimitMinMs: number;
  /** A sample's deadline is this many times the expected samples' time (a bad guess must not kill a slow size). @default 8 */
  readonly sampleLimitFactor: number;
  /** Expected call time is taken as at least this many minimum samples. @default 4 */
  readonly sampleLimitMinSamples: number;
  /** Fixed margin added to a sample's deadline, ms. @default 500 */
  readonly sampleLimitMarginMs: number;
  /** Budget multiple for the sizes given explicitly (no growth rule, stop once past it). @default 4 */
  readonly explicitBudget: number;
  /** Growth assumed for the next explicit size: up to a cubic doubling. @default 8 */
  readonly explicitGrowth: number;
  /** Growth assumed for the second size before any step was measured. @default 2 */
  readonly firstGrowth: number;
  /** Budget multiple while fewer than `fullSeries` sizes were measured (a fit needs them). @default 4 */
  readonly fewSizesBudget: number;
  /** Sizes a series wants before the plain budget applies. @default 5 */
  readonly fullSeries: number;
  /** Most sizes in one series. @default 24 */
  readonly maxSizes: number;
  /** Passes over the measured sizes after the growth, each keeping a size's minimum (spreads a load period over every size). @default 1 */
  readonly passes: number;
  /** A pass samples each size `repeats / passRepeatsDivisor` times (rounded up). @default 2 */
  readonly passRepeatsDivisor: number;
  /** Ratio of one doubling's times above which the series walks in small steps (steeper than n³: maybe exponential). @default 12 */
  readonly stepRatio: number;
  /** Small steps start only at or below this size (an exponential is out of budget above). @default 64 */
  readonly stepMaxN: number;
  /** Sizes filled in between the last two, as the lower size over this. @default 4 */
  readonly stepFillParts: number;
  /** One small step is the size over this. @default 8 */
  readonly stepParts: number;
  /** A small step's log-log slope under this looks polynomial, not exponential. @default 5 */
  readonly stepPolynomialSlope: number;
  /** Polynomial-looking small steps in a row that go back to doubling. @default 2 */
  readonly stepGentleSteps: number;
  /** Doubling after small steps goes up to this size. @default 16_384 */
  readonly stepResumeTo: number;
  /** Smallest ratio a log of a step's growth takes (a guard, not a threshold). @default 1e-9 */
  readonly minRatio: number;
  /** A doubling past n³ above this size that would end the series is sampled once more (a JIT deoptimising at one size). @default 64 */
  readonly resampleMinN: number;
  /** Ratio of one doubling's times from which that second sample is taken. @default 8 */
  readonly resampleRatio: number;
  /** Whether sizes grow past `sizes` while the steep-top rule is undecided (see `extendTo`). @default true */
  readonly extendSizes: boolean;
  /** Sizes grow while the last step's slope is at least this and the top rule is undecided. @default 1.4 */
  readonly extendSlope: number;
  /** Largest size the growth reaches: a small-constant quadratic term (a memmove under linear work) only reaches the top-rule slope above the default sizes. @default 131_072 */
  readonly extendTo: number;
  /** Budget multiple while the growth continues. @default 6 */
  readonly extendBudget: number;

  // ---- fitting (`_fit.ts`) ----
  /** Sizes below this are left out of the fit (insertion sort for short runs, fixed call costs)… @default 32 */
  readonly fitMinN: number;
  /** …when at least this many larger sizes were measured. @default 5 */
  readonly fitMinLarge: number;
  /** One point in this many (the worst-fitting) is left out and the fit redone: one disturbed size must not decide. @default 5 */
  readonly dropOneIn: number;
  /** The exponential fit is tried only when no size is above this. @default 200 */
  readonly exponentialMaxN: number;
  /** Bases c of the exponential fit t = a + b·cⁿ, tried in turn. */
  readonly exponentialBases: readonly number[];

  // ---- deciding (`decide`) ----
  /** Fewer sizes than this are "unknown". @default 4 */
  readonly minSizes: number;
  /** A best fit whose RMS relative error is above this is "unknown". @default 0.4 */
  readonly maxError: number;
  /** A simpler class wins when its error is within this factor of the best… @default 1.25 */
  readonly slack: number;
  /** …plus this absolute error (noise at tiny errors). @default 0.02 */
  readonly slackAbs: number;
  /** A fitted curve growing by less than this factor over the sizes is O(1) (cache and allocator effects give that much). @default 1.25 */
  readonly flat: number;
  /** A runner-up whose growth term is below this share of its constant at the largest size is O(1) under another name, not a rival. @default 0.02 */
  readonly negligibleGrowth: number;
  /** Share of the sizes, smallest first, over which an O(n log n) call is checked against O(n) (memory effects raise linear code at the top; a log factor shows at every size); 0 turns it off. @default 0.6 */
  readonly lowerShare: number;
  /** That check uses at least this many sizes. @default 5 */
  readonly lowerMinSizes: number;
  /** The top-size rule: where each of the last two steps grows as n^topSlope or steeper, the best class above n log n is taken (a memmove's quadratic term settles below in a fit over every size). @default 1.7 */
  readonly topSlope: number;
  /** The top-size rule needs this many sizes… @default 5 */
  readonly topMinSizes: number;
  /** …and its last two steps must span at least this factor of n. @default 4 */
  readonly topMinSpan: number;
  /** With no class above n log n within `maxError`, a top slope from this names n³ rather than n². @default 2.8 */
  readonly cubicTopSlope: number;
  /** Whether a steep top no class fits is named by its slope (off where a runtime's large-object step makes linear code that steep). @default true */
  readonly topBySlope: boolean;
  /** Whether one lone step of a JIT changing regime is looked for, and the class decided on the sizes above it. @default false */
  readonly jitStep: boolean;
  /** A lone step needs at least this many sizes (from `fitMinN`) on either side. @default 4 */
  readonly regimeSide: number;
  /** A lone step grows as n^regimeMinSlope or steeper… @default 2 */
  readonly regimeMinSlope: number;
  /** …at least this much above the median slope of the other steps… @default 0.8 */
  readonly regimeRise: number;
  /** …and the step after it falls at most this much below that median (else it is one slow point). @default 0.4 */
  readonly regimeFallBack: number;
}

/** Bases from `from` to `to` by `step`, accumulated as the fit always did. */
function baseGrid(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  // the tolerance keeps `to` in the grid despite the accumulated rounding
  for (let c = from; c <= to + step / 500; c += step) out.push(c);
  return out;
}

/** The method's defaults (the reasons: {@linkcode ComplexityMethod}). */
export const DEFAULT_METHOD: ComplexityMethod = Object.freeze({
  sizes: Object.freeze(Array.from({ length: 12 }, (_, i) => 8 * 2 ** i)),
  budgetMs: 100,
  repeats: 3,
  minSampleMs: 1,
  timeoutMs: 60_000,
  minMs: 1e-7,
  firstCallMs: 100,
  sampleLimitMinMs: 1_000,
  sampleLimitFactor: 8,
  sampleLimitMinSamples: 4,
  sampleLimitMarginMs: 500,
  explicitBudget: 4,
  explicitGrowth: 8,
  firstGrowth: 2,
  fewSizesBudget: 4,
  fullSeries: 5,
  maxSizes: 24,
  passes: 1,
  passRepeatsDivisor: 2,
  stepRatio: 12,
  stepMaxN: 64,
  stepFillParts: 4,
  stepParts: 8,
  stepPolynomialSlope: 5,
  stepGentleSteps: 2,
  stepResumeTo: 16_384,
  minRatio: 1e-9,
  resampleMinN: 64,
  resampleRatio: 8,
  extendSizes: true,
  extendSlope: 1.4,
  extendTo: 131_072,
  extendBudget: 6,
  fitMinN: 32,
  fitMinLarge: 5,
  dropOneIn: 5,
  exponentialMaxN: 200,
  exponentialBases: Object.freeze(baseGrid(1.2, 3, 0.05)),
  minSizes: 4,
  maxError: 0.4,
  slack: 1.25,
  slackAbs: 0.02,
  flat: 1.25,
  negligibleGrowth: 0.02,
  lowerShare: 0.6,
  lowerMinSizes: 5,
  topSlope: 1.7,
  topMinSizes: 5,
  topMinSpan: 4,
  cubicTopSlope: 2.8,
  topBySlope: true,
  jitStep: false,
  regimeSide: 4,
  regimeMinSlope: 2,
  regimeRise: 0.8,
  regimeFallBack: 0.4,
});

/**
 * Each backend's differences from {@linkcode DEFAULT_METHOD}.
 *
 * - `deno` (JavaScript): V8 moves an array of 16k numbers or more (128 KB)
 *   to its large-object space, so a call allocating one jumps 3–10× in one
 *   step around n = 8k–32k and is linear again above: no growth past the
 *   default sizes and no naming a steep top by its slope (its memmove,
 *   `unshift` or `splice`, is steep within the default sizes). V8 also
 *   optimises for the inputs seen first, the small sizes, so one lone step
 *   where it changes regime is looked for (`jitStep`).
 * - `native` and `pyodide` (CPython): the defaults.
 */
export const BACKEND_METHOD: Readonly<
  Record<Backend, Readonly<Partial<ComplexityMethod>>>
> = Object.freeze({
  deno: Object.freeze({ extendSizes: false, topBySlope: false, jitStep: true }),
  native: Object.freeze({}),
  pyodide: Object.freeze({}),
});

/**
 * The method for one backend: the defaults, the backend's overrides, then
 * the caller's.
 *
 * @param backend Where the program runs.
 * @param overrides Fields to change (experiments).
 * @returns A complete method.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { methodFor } from "./complexity_method.ts";
 *
 * assert.deepEqual(methodFor("deno").topBySlope, false);
 * assert.deepEqual(methodFor("pyodide", { slack: 1.5 }).slack, 1.5);
 * ```
 */
export function methodFor(
  backend: Backend,
  overrides: Partial<ComplexityMethod> = {},
): ComplexityMethod {
  return { ...DEFAULT_METHOD, ...BACKEND_METHOD[backend], ...overrides };
}
