/**
 * Where a model's accuracy crosses a target as a question's size grows,
 * learnt one question at a time: a Bayesian adaptive design in the manner
 * of QUEST+ (Watson 2017, "QUEST+: A general multidimensional Bayesian
 * adaptive psychometric method", Journal of Vision 17(3):10). The
 * psychometric curve is logistic and falling,
 * `p(x) = (1 − λ) · σ(c − β (x − x*))` with `c` such that `p(x*) = target`;
 * the unknowns are the crossing `x*`, the slope `β` and the lapse `λ` (the
 * share of easy questions still missed), on a grid, with a flat prior.
 * Only the crossing is reported; slope and lapse are summed out, so a
 * curve that is not logistic far from the crossing (a slow decline on
 * easy sizes, then a steep fall) still fits where it matters. Each next size is the one whose answer is expected to leave
 * the crossing's posterior with the least variance; the design stops when
 * the crossing's 95% credible interval is no wider than asked.
 *
 * Why a Bayesian design rather than a staircase: the stopping rule needs
 * an interval on the crossing after any number of trials, which the
 * posterior gives directly; a staircase's reversals give a point estimate
 * whose interval needs many more trials. Written by hand: no npm package
 * implements QUEST+ for a free-response (no guessing) task, and the whole
 * method is a grid posterior of a few thousand cells.
 *
 * Everything is deterministic: the same outcomes in the same order give
 * the same next size, so a resumed sweep continues the same design from
 * its stored rows.
 *
 * @module
 */

/** How the design is set up. */
export interface CrossingOptions {
  /** The sizes a question may have (e.g. digit counts), in any order. */
  sizes: readonly number[];
  /** The accuracy whose crossing is sought. @default 0.5 */
  target?: number;
  /** Stop when the 95% interval is no wider than this (in size units). @default 1 */
  width?: number;
  /** Lapses on the grid (shares of easy questions still missed). @default 0.01, 0.05, 0.1, 0.2 */
  lapses?: readonly number[];
  /** Slopes on the grid (logits per size unit). @default 0.25 to 4, 9 steps, log-spaced */
  slopes?: readonly number[];
  /** Spacing of the crossing's grid. @default 0.05 */
  step?: number;
}

/** The crossing as the outcomes so far place it. */
export interface CrossingEstimate {
  /** The posterior mean of the crossing. */
  mean: number;
  /** The 95% credible interval's ends (2.5% and 97.5% quantiles). */
  low: number;
  /** See `low`. */
  high: number;
  /** Outcomes seen. */
  trials: number;
  /** True when the interval is no wider than `width`. */
  done: boolean;
}

/**
 * The adaptive design for one (model, family) group: feed it outcomes,
 * ask it for the next size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CrossingDesign } from "./crossing.ts";
 * // A responder whose accuracy falls through 50% at 6.3 digits.
 * const truth = (x: number) => 0.98 / (1 + Math.exp(1.5 * (x - 6.3)));
 * const design = new CrossingDesign({ sizes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] });
 * let a = 7; // seeded draws (Park–Miller)
 * const rand = () => (a = (a * 16807) % 2147483647) / 2147483647;
 * while (!design.estimate().done && design.estimate().trials < 400) {
 *   const x = design.next();
 *   design.update(x, rand() < truth(x));
 * }
 * const e = design.estimate();
 * assert.ok(e.done && e.high - e.low <= 1, JSON.stringify(e));
 * assert.ok(Math.abs(e.mean - 6.3) < 1, JSON.stringify(e));
 * ```
 */
export class CrossingDesign {
  readonly #sizes: number[];
  readonly #width: number;
  readonly #target: number;
  readonly #crossings: Float64Array;
  /** The curve's shapes on the grid: [slope, lapse]. */
  readonly #shapes: (readonly [number, number])[];
  /** p(correct | cell, size index), cells crossing-major. */
  readonly #p: Float64Array[];
  /** log p and log(1 − p) per size, for `updateMany`. */
  readonly #logP: Float64Array[];
  readonly #logQ: Float64Array[];
  #post: Float64Array;
  #trials = 0;

  /**
   * A design with a flat prior over the crossing (from a size below the
   * smallest to one above the largest) and the slopes.
   *
   * @param options Sizes, target, width and the curve's grid; or a design
   *   to copy (as {@linkcode CrossingDesign.copy} does).
   * @throws {RangeError} for no sizes, a target outside (0, 1), no lapse
   *   leaving the target reachable, or a width that is not positive.
   */
  constructor(options: CrossingOptions | CrossingDesign) {
    if (options instanceof CrossingDesign) {
      // A copy (see `copy`): the grid's arrays are never written, so shared.
      this.#sizes = options.#sizes;
      this.#width = options.#width;
      this.#target = options.#target;
      this.#crossings = options.#crossings;
      this.#shapes = options.#shapes;
      this.#p = options.#p;
      this.#logP = options.#logP;
      this.#logQ = options.#logQ;
      this.#post = options.#post.slice();
      this.#trials = options.#trials;
      return;
    }
    const target = this.#target = options.target ?? 0.5;
    this.#width = options.width ?? 1;
    this.#sizes = [...new Set(options.sizes)].sort((a, b) => a - b);
    if (this.#sizes.length === 0) {
      throw new RangeError("Cannot design without sizes: give at least one");
    }
    if (!(target > 0 && target < 1)) {
      throw new RangeError(
        `Cannot seek a crossing of ${target}: give a target between 0 and 1`,
      );
    }
    if (!(this.#width > 0)) {
      throw new RangeError(
        `Cannot stop at a width of ${this.#width}: give a positive width`,
      );
    }
    const slopes = options.slopes ??
      Array.from({ length: 9 }, (_, i) => 0.25 * Math.pow(16, i / 8));
    const lapses = (options.lapses ?? [0.01, 0.05, 0.1, 0.2]).filter((l) =>
      1 - l > target
    );
    if (lapses.length === 0) {
      throw new RangeError(
        `Cannot seek a crossing of ${target} with lapses ${options.lapses}: give a lapse below ${
          1 - target
        }`,
      );
    }
    this.#shapes = slopes.flatMap((b) => lapses.map((l) => [b, l] as const));
    const step = options.step ?? 0.05;
    const lo = this.#sizes[0]! - 1, hi = this.#sizes.at(-1)! + 1;
    const n = Math.round((hi - lo) / step) + 1;
    this.#crossings = Float64Array.from({ length: n }, (_, i) => lo + i * step);
    const shapes = this.#shapes.length;
    const cells = n * shapes;
    this.#p = this.#sizes.map((x) => {
      const p = new Float64Array(cells);
      for (let i = 0; i < n; i++) {
        this.#shapes.forEach(([slope, lapse], j) => {
          p[i * shapes + j] = this.#chance(
            x,
            this.#crossings[i]!,
            slope,
            lapse,
          );
        });
      }
      return p;
    });
    this.#logP = this.#p.map((p) => p.map(Math.log));
    this.#logQ = this.#p.map((p) => p.map((v) => Math.log(1 - v)));
    this.#post = new Float64Array(cells).fill(1 / cells);
  }

  /** The curve's chance of a correct answer at `x` for one grid cell. */
  #chance(x: number, crossing: number, slope: number, lapse: number): number {
    const c = Math.log(this.#target / (1 - lapse - this.#target));
    return (1 - lapse) / (1 + Math.exp(-(c - slope * (x - crossing))));
  }

  /** The index of a size, or a RangeError naming the design's sizes. */
  #index(size: number): number {
    const k = this.#sizes.indexOf(size);
    if (k < 0) {
      throw new RangeError(
        `Cannot take an outcome at size ${size}: the design's sizes are ${
          this.#sizes.join(", ")
        }; use one of them`,
      );
    }
    return k;
  }

  /**
   * Takes one outcome into the posterior.
   *
   * @param size The question's size (one of the design's sizes).
   * @param correct Whether the answer was correct.
   * @throws {RangeError} for a size the design does not have.
   */
  update(size: number, correct: boolean): void {
    this.#post = posterior(this.#post, this.#p[this.#index(size)]!, correct);
    this.#trials++;
  }

  /**
   * Takes many outcomes at one size in one pass: the posterior times
   * p^correct (1 − p)^wrong, in log space so that hundreds of outcomes do
   * not underflow. Equal to as many calls of {@linkcode update} (the
   * posterior does not depend on the order of outcomes).
   *
   * @param size The questions' size (one of the design's sizes).
   * @param counts Correct and wrong answers at that size.
   * @throws {RangeError} for a size the design does not have, or counts
   *   that are not whole and non-negative.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { CrossingDesign } from "./crossing.ts";
   * const one = new CrossingDesign({ sizes: [1, 2, 3, 4] });
   * const many = new CrossingDesign({ sizes: [1, 2, 3, 4] });
   * for (let i = 0; i < 7; i++) one.update(3, i < 5);
   * many.updateMany(3, { correct: 5, wrong: 2 });
   * assert.ok(Math.abs(one.estimate().mean - many.estimate().mean) < 1e-9);
   * assert.equal(many.estimate().trials, 7);
   * ```
   */
  updateMany(size: number, counts: { correct: number; wrong: number }): void {
    const { correct, wrong } = counts;
    for (const c of [correct, wrong]) {
      if (!(Number.isInteger(c) && c >= 0)) {
        throw new RangeError(
          `Cannot take ${c} outcomes: counts must be whole numbers of at least 0; give counts of answers`,
        );
      }
    }
    const k = this.#index(size);
    const [lp, lq] = [this.#logP[k]!, this.#logQ[k]!];
    const log = new Float64Array(lp.length);
    let max = -Infinity;
    for (let i = 0; i < lp.length; i++) {
      // 0 · log 0 is 0 here: a count of 0 leaves the cell as it was.
      const l = Math.log(this.#post[i]!) +
        (correct > 0 ? correct * lp[i]! : 0) +
        (wrong > 0 ? wrong * lq[i]! : 0);
      log[i] = l;
      if (l > max) max = l;
    }
    const out = new Float64Array(lp.length);
    let total = 0;
    for (let i = 0; i < lp.length; i++) {
      total += out[i] = Math.exp(log[i]! - max);
    }
    for (let i = 0; i < out.length; i++) out[i] = out[i]! / total;
    this.#post = out;
    this.#trials += correct + wrong;
  }

  /**
   * The posterior predictive accuracy at a size: the curve's chance of a
   * correct answer averaged over the posterior (crossing, slope and lapse).
   * Any size may be asked, not only the design's.
   *
   * @param size Where to predict.
   * @returns A chance in [0, 1].
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { CrossingDesign } from "./crossing.ts";
   * const d = new CrossingDesign({ sizes: [1, 2, 3, 4, 5, 6] });
   * d.updateMany(2, { correct: 40, wrong: 0 });
   * d.updateMany(5, { correct: 0, wrong: 40 });
   * assert.ok(d.predicted(2) > 0.8 && d.predicted(5) < 0.2);
   * assert.ok(d.predicted(2.5) > d.predicted(4.5));
   * ```
   */
  predicted(size: number): number {
    const s = this.#shapes.length;
    let total = 0;
    for (let i = 0; i < this.#crossings.length; i++) {
      for (let j = 0; j < s; j++) {
        const w = this.#post[i * s + j]!;
        if (w === 0) continue;
        const [slope, lapse] = this.#shapes[j]!;
        total += w * this.#chance(size, this.#crossings[i]!, slope, lapse);
      }
    }
    return total;
  }

  /**
   * A copy with the same grid, posterior and trials: cheaper than building
   * the grid again when many designs start from one prior.
   *
   * @returns An independent design.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { CrossingDesign } from "./crossing.ts";
   * const a = new CrossingDesign({ sizes: [1, 2, 3] });
   * const b = a.copy();
   * b.update(2, false);
   * assert.equal(a.estimate().trials, 0);
   * assert.equal(b.estimate().trials, 1);
   * ```
   */
  copy(): CrossingDesign {
    return new CrossingDesign(this);
  }

  /**
   * The size to ask next: the one whose outcome is expected to leave the
   * least posterior variance of the crossing (ties: the smaller size).
   */
  next(): number {
    let best = 0, bestVar = Infinity;
    this.#sizes.forEach((_, k) => {
      const p = this.#p[k]!;
      let pc = 0;
      for (let i = 0; i < p.length; i++) pc += this.#post[i]! * p[i]!;
      const after = (correct: boolean) =>
        variance(
          this.#marginal(posterior(this.#post, p, correct)),
          this.#crossings,
        );
      const v = pc * after(true) + (1 - pc) * after(false);
      if (v < bestVar - 1e-12) [best, bestVar] = [k, v];
    });
    return this.#sizes[best]!;
  }

  /** The crossing as the outcomes so far place it. */
  estimate(): CrossingEstimate {
    const m = this.#marginal(this.#post);
    let mean = 0, acc = 0, low = NaN, high = NaN;
    for (let i = 0; i < m.length; i++) {
      const x = this.#crossings[i]!;
      mean += m[i]! * x;
      acc += m[i]!;
      if (Number.isNaN(low) && acc >= 0.025) low = x;
      if (Number.isNaN(high) && acc >= 0.975) high = x;
    }
    return {
      mean,
      low,
      high,
      trials: this.#trials,
      done: high - low <= this.#width,
    };
  }

  /** The posterior over crossings alone (shapes summed out). */
  #marginal(post: Float64Array): Float64Array {
    const s = this.#shapes.length;
    const m = new Float64Array(this.#crossings.length);
    for (let i = 0; i < m.length; i++) {
      let t = 0;
      for (let j = 0; j < s; j++) t += post[i * s + j]!;
      m[i] = t;
    }
    return m;
  }
}

function posterior(
  prior: Float64Array,
  p: Float64Array,
  correct: boolean,
): Float64Array {
  const out = new Float64Array(prior.length);
  let total = 0;
  for (let i = 0; i < prior.length; i++) {
    const l = correct ? p[i]! : 1 - p[i]!;
    total += out[i] = prior[i]! * l;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / total;
  return out;
}

function variance(m: Float64Array, g: Float64Array): number {
  let mean = 0, sq = 0;
  for (let i = 0; i < m.length; i++) {
    mean += m[i]! * g[i]!;
    sq += m[i]! * g[i]! * g[i]!;
  }
  return sq - mean * mean;
}
