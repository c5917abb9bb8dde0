/**
 * Where accuracy crosses a target, with no assumed curve shape: each
 * size's accuracy is its own unknown, the only assumption is that
 * accuracy does not rise with size, and the crossing is read between
 * the two sizes around it by interpolating in log-odds (the curve is
 * observed at whole sizes only, so that is all it says between them).
 * This is the curve-free design of dose-finding trials (Gasparini &
 * Eisele 2000, "A curve-free method for phase I clinical trials",
 * Biometrics 56(2):609–615): a product of independent flat priors on
 * the sizes' accuracies, restricted to an ordering.
 *
 * Each next size is the one whose outcome is expected to leave the
 * crossing's posterior with the least variance: the decision rule of
 * QUEST+ (Watson 2017, Journal of Vision 17(3):10). A design stops when
 * the 95% interval is no wider than asked.
 *
 * Why not QUEST+'s logistic curve (this module's first version): the
 * sim's calibrated curves have shelves and cliffs no logistic fits, and
 * on them the logistic posterior was confidently wrong (with 60 questions
 * at every size its 95% interval put sim-strong's multiplication crossing
 * at [6.70, 7.20], the truth being 7.22), while this posterior holds for
 * any falling curve (`docs/adaptive.md` has the figures).
 *
 * The posterior is exact on a grid of accuracies: the ordering makes the
 * sizes a chain, so forward and backward sums give every size's marginal
 * in time linear in the grid, and every neighbouring pair's joint in time
 * quadratic in it (written by hand: no npm package computes an
 * ordered-Beta posterior). Deterministic, and independent of the order of
 * outcomes.
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
  /** Points of the accuracy grid per size (its resolution). @default 50 */
  resolution?: number;
}

/** The crossing as the outcomes so far place it. */
export interface CrossingEstimate {
  /**
   * The posterior mean of the crossing; a crossing below the smallest
   * size counts as one size below it, above the largest as one above.
   */
  mean: number;
  /** The 95% credible interval's lower end (2.5% quantile). */
  low: number;
  /** Its upper end (97.5% quantile). */
  high: number;
  /** Outcomes seen. */
  trials: number;
  /** True when the interval is no wider than `width`. */
  done: boolean;
  /** The probability that accuracy is below the target at every size. */
  below: number;
  /** The probability that it is at or above the target at every size. */
  above: number;
}

/** Forward and backward sums over the sizes, and each size's likelihood. */
interface Messages {
  forward: Float64Array[];
  backward: Float64Array[];
  like: Float64Array[];
}

/** The crossing's distribution, summarised. */
interface Crossing {
  mean: number;
  variance: number;
  low: number;
  high: number;
  /** Probability that accuracy is under the target at every size. */
  below: number;
  /** Probability that it is at or above it at every size. */
  above: number;
  /** Probability of a crossing between sizes k and k + 1, per k. */
  spans: Float64Array;
}

/** Resolution of the crossing's distribution (size units). */
const STEP = 0.01;

/**
 * The curve-free crossing design for one (model, group): feed it
 * outcomes, ask it for the next size, read the crossing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CrossingDesign } from "./crossing.ts";
 * // Accuracy 0.9 at 3 digits, 0.7 at 4, 0.3 at 5, 0.1 at 6: the crossing
 * // lies halfway between 4 and 5 in log-odds.
 * const design = new CrossingDesign({ sizes: [3, 4, 5, 6] });
 * const counts: Record<number, [number, number]> = { 3: [90, 10], 4: [70, 30], 5: [30, 70], 6: [10, 90] };
 * for (const [size, [right, wrong]] of Object.entries(counts)) {
 *   design.updateMany(Number(size), { correct: right, wrong });
 * }
 * const e = design.estimate();
 * assert.ok(Math.abs(e.mean - 4.5) < 0.05, JSON.stringify(e));
 * assert.ok(e.low < 4.5 && 4.5 < e.high && e.done);
 * ```
 */
export class CrossingDesign {
  readonly #sizes: number[];
  readonly #target: number;
  readonly #width: number;
  /** Accuracy grid, ascending, and its log, log(1−p) and logit. */
  readonly #p: Float64Array;
  readonly #logP: Float64Array;
  readonly #logQ: Float64Array;
  readonly #logit: Float64Array;
  /** First grid index at or above the target. */
  readonly #atTarget: number;
  readonly #right: number[];
  readonly #wrong: number[];
  #trials = 0;
  /** The posterior of the outcomes so far (null: not computed since the last). */
  #now: { accuracies: number[]; crossing: Crossing } | null = null;

  /**
   * A design with flat priors on each size's accuracy, ordered.
   *
   * @param options Sizes, target, width and grid.
   * @throws {RangeError} for no sizes, a target outside (0, 1) or a width
   *   that is not positive.
   */
  constructor(options: CrossingOptions) {
    this.#target = options.target ?? 0.5;
    this.#width = options.width ?? 1;
    this.#sizes = [...new Set(options.sizes)].sort((a, b) => a - b);
    if (this.#sizes.length === 0) {
      throw new RangeError("Cannot design without sizes: give at least one");
    }
    if (!(this.#target > 0 && this.#target < 1)) {
      throw new RangeError(
        `Cannot seek a crossing of ${this.#target}: give a target between 0 and 1`,
      );
    }
    if (!(this.#width > 0)) {
      throw new RangeError(
        `Cannot stop at a width of ${this.#width}: give a positive width`,
      );
    }
    const g = options.resolution ?? 50;
    this.#p = Float64Array.from({ length: g }, (_, j) => (j + 0.5) / g);
    this.#logP = this.#p.map(Math.log);
    this.#logQ = this.#p.map((p) => Math.log(1 - p));
    this.#logit = this.#p.map((p) => Math.log(p / (1 - p)));
    this.#atTarget = this.#p.findIndex((p) => p >= this.#target);
    if (this.#atTarget < 0) this.#atTarget = g;
    this.#right = this.#sizes.map(() => 0);
    this.#wrong = this.#sizes.map(() => 0);
  }

  /** The design's sizes, ascending. */
  get sizes(): readonly number[] {
    return this.#sizes;
  }

  /**
   * Takes one outcome into the posterior.
   *
   * @param size The question's size (one of the design's sizes).
   * @param correct Whether the answer was correct.
   * @throws {RangeError} for a size the design does not have.
   */
  update(size: number, correct: boolean): void {
    this.updateMany(size, { correct: correct ? 1 : 0, wrong: correct ? 0 : 1 });
  }

  /**
   * Takes many outcomes at one size into the posterior (the same as as
   * many `update` calls, in any order).
   *
   * @param size The questions' size (one of the design's sizes).
   * @param counts Correct and wrong answers at it.
   * @throws {RangeError} for a size the design does not have, or counts
   *   that are not whole numbers of 0 or more.
   */
  updateMany(size: number, counts: { correct: number; wrong: number }): void {
    const k = this.#index(size);
    for (const n of [counts.correct, counts.wrong]) {
      if (!Number.isSafeInteger(n) || n < 0) {
        throw new RangeError(
          `Cannot take ${counts.correct} correct and ${counts.wrong} wrong answers at size ${size}: give whole numbers of 0 or more`,
        );
      }
    }
    this.#right[k]! += counts.correct;
    this.#wrong[k]! += counts.wrong;
    this.#trials += counts.correct + counts.wrong;
    this.#now = null;
  }

  /**
   * The posterior mean accuracy at one of the design's sizes (an
   * estimate: it borrows from the neighbouring sizes through the
   * ordering).
   *
   * @param size One of the design's sizes.
   * @throws {RangeError} for a size the design does not have.
   */
  predicted(size: number): number {
    return this.#current().accuracies[this.#index(size)]!;
  }

  /**
   * A design with the same sizes, target, width and outcomes, to go on
   * separately (a simulation from a common start).
   */
  copy(): CrossingDesign {
    const out = new CrossingDesign({
      sizes: this.#sizes,
      target: this.#target,
      width: this.#width,
      resolution: this.#p.length,
    });
    this.#sizes.forEach((size, k) =>
      out.updateMany(size, { correct: this.#right[k]!, wrong: this.#wrong[k]! })
    );
    return out;
  }

  /**
   * The posterior of the outcomes so far, computed once per change: each
   * size's mean accuracy and the crossing's distribution.
   */
  #current(): { accuracies: number[]; crossing: Crossing } {
    if (this.#now === null) {
      const messages = this.#messages(this.#right, this.#wrong);
      const { forward, backward } = messages;
      const accuracies = this.#sizes.map((_, k) => {
        let total = 0, mean = 0;
        for (let j = 0; j < this.#p.length; j++) {
          const m = forward[k]![j]! * backward[k]![j]!;
          total += m;
          mean += m * this.#p[j]!;
        }
        return mean / total;
      });
      this.#now = { accuracies, crossing: this.#crossingOf(messages) };
    }
    return this.#now;
  }

  /**
   * The size to ask next: the one whose outcome is expected to leave the
   * crossing's posterior with the least variance (ties: the smaller
   * size).
   *
   * @param among Only these sizes (those with questions left).
   *   @default all the design's sizes
   * @throws {RangeError} when `among` holds none of the design's sizes.
   */
  next(among?: readonly number[]): number {
    return this.choose(among).size;
  }

  /**
   * The next size, with `gain`: the share of the crossing's posterior
   * variance its outcome is expected to remove. A gain near zero means
   * no size allowed can narrow the interval (the informative sizes'
   * questions are used up).
   * A gain near zero means no size left can narrow the interval (the
   * informative sizes' questions are used up).
   *
   * @param among Only these sizes. @default all the design's sizes
   * @throws {RangeError} when `among` holds none of the design's sizes.
   */
  choose(among?: readonly number[]): { size: number; gain: number } {
    const { accuracies: accuracy, crossing: current } = this.#current();
    const now = current.variance;
    // Only sizes next to where the crossing may lie can move it: a size
    // both of whose neighbouring gaps hold almost none of the crossing's
    // mass is skipped (its outcome would remove almost none of the
    // variance), which keeps a choice to a few sizes' updates.
    const last = this.#sizes.length - 1;
    const near = (k: number) =>
      (k > 0 && current.spans[k - 1]! > 1e-3) ||
      (k < last && current.spans[k]! > 1e-3) ||
      (k === 0 && current.below > 1e-3) ||
      (k === last && current.above > 1e-3);
    const candidates = this.#sizes.filter((size) =>
      among === undefined || among.includes(size)
    );
    const anyNear = candidates.some((size) => near(this.#sizes.indexOf(size)));
    let best = -1, bestVar = Infinity;
    this.#sizes.forEach((size, k) => {
      if (among !== undefined && !among.includes(size)) return;
      if (anyNear && !near(k)) return;
      const pc = accuracy[k]!;
      const after = (correct: boolean) => {
        const right = [...this.#right], wrong = [...this.#wrong];
        if (correct) right[k]!++;
        else wrong[k]!++;
        return this.#crossing(right, wrong).variance;
      };
      const v = pc * after(true) + (1 - pc) * after(false);
      if (best < 0 || v < bestVar - 1e-12) [best, bestVar] = [k, v];
    });
    if (best < 0) {
      throw new RangeError(
        `Cannot choose among sizes ${
          among?.join(", ")
        }: the design's sizes are ${this.#sizes.join(", ")}`,
      );
    }
    return {
      size: this.#sizes[best]!,
      gain: now > 0 ? Math.max(0, (now - bestVar) / now) : 0,
    };
  }

  /** The crossing as the outcomes so far place it. */
  estimate(): CrossingEstimate {
    const c = this.#current().crossing;
    return {
      mean: c.mean,
      low: c.low,
      high: c.high,
      trials: this.#trials,
      done: c.high - c.low <= this.#width + 1e-9,
      below: c.below,
      above: c.above,
    };
  }

  #index(size: number): number {
    const k = this.#sizes.indexOf(size);
    if (k < 0) {
      throw new RangeError(
        `Cannot take an outcome at size ${size}: the design's sizes are ${
          this.#sizes.join(", ")
        }`,
      );
    }
    return k;
  }

  /**
   * Forward and backward sums over the chain of sizes (accuracy falling
   * with size): forward[k][j] is the weight of size k's accuracy at grid
   * point j given the outcomes up to k, backward[k][j] given those after.
   * Each row is rescaled to sum 1 (only ratios matter).
   */
  #messages(right: readonly number[], wrong: readonly number[]): Messages {
    const g = this.#p.length, n = this.#sizes.length;
    const like = this.#sizes.map((_, k) => {
      const l = new Float64Array(g);
      let max = -Infinity;
      for (let j = 0; j < g; j++) {
        l[j] = right[k]! * this.#logP[j]! + wrong[k]! * this.#logQ[j]!;
        if (l[j]! > max) max = l[j]!;
      }
      for (let j = 0; j < g; j++) l[j] = Math.exp(l[j]! - max);
      return l;
    });
    const forward: Float64Array[] = [];
    const backward: Float64Array[] = new Array(n);
    forward.push(normalised(like[0]!));
    for (let k = 1; k < n; k++) {
      // The next size's accuracy is at most this one's: sum from the top.
      const f = new Float64Array(g);
      let tail = 0;
      for (let j = g - 1; j >= 0; j--) {
        tail += forward[k - 1]![j]!;
        f[j] = like[k]![j]! * tail;
      }
      forward.push(normalised(f));
    }
    backward[n - 1] = new Float64Array(g).fill(1);
    for (let k = n - 2; k >= 0; k--) {
      const b = new Float64Array(g);
      let head = 0;
      for (let j = 0; j < g; j++) {
        head += like[k + 1]![j]! * backward[k + 1]![j]!;
        b[j] = head;
      }
      backward[k] = normalised(b);
    }
    return { forward, backward, like };
  }

  /** The crossing's distribution after these outcomes. */
  #crossing(right: readonly number[], wrong: readonly number[]): Crossing {
    return this.#crossingOf(this.#messages(right, wrong));
  }

  /** The crossing's distribution: its mean, variance and 95% interval. */
  #crossingOf(
    { forward, backward, like }: Messages,
  ): Crossing {
    const sizes = this.#sizes, g = this.#p.length, t = this.#atTarget;
    const lo = sizes[0]! - 1, hi = sizes.at(-1)! + 1;
    const bins = new Float64Array(Math.round((hi - lo) / STEP) + 1);
    const put = (x: number, w: number) => {
      bins[
        Math.min(bins.length - 1, Math.max(0, Math.round((x - lo) / STEP)))
      ]! += w;
    };
    const logitT = Math.log(this.#target / (1 - this.#target));
    // Below every size: the first size's accuracy under the target.
    let below = 0, total = 0;
    for (let j = 0; j < g; j++) {
      const m = forward[0]![j]! * backward[0]![j]!;
      total += m;
      if (j < t) below += m;
    }
    // Above every size: the last size's accuracy at or above it.
    let above = 0, lastTotal = 0;
    const last = sizes.length - 1;
    for (let j = 0; j < g; j++) {
      const m = forward[last]![j]! * backward[last]![j]!;
      lastTotal += m;
      if (j >= t) above += m;
    }
    below /= total;
    above /= lastTotal;
    put(lo, below);
    put(hi, above);
    // Between sizes k and k+1: accuracy at k at or above the target (a),
    // at k+1 under it (b ≤ a); the joint of the pair is
    // forward[k](a) · like[k+1](b) · backward[k+1](b), normalised below.
    const spans = new Float64Array(Math.max(0, last));
    // The events (below, above, each pair) are disjoint and cover every
    // falling curve, so their masses sum to one.
    for (let k = 0; k < last; k++) {
      const bw = new Float64Array(g);
      for (let b = 0; b < g; b++) {
        bw[b] = like[k + 1]![b]! * backward[k + 1]![b]!;
      }
      // The pair's normaliser: all a ≥ b.
      let z = 0, cum = 0;
      for (let a = 0; a < g; a++) {
        cum += bw[a]!;
        z += forward[k]![a]! * cum;
      }
      const span = sizes[k + 1]! - sizes[k]!;
      for (let a = t; a < g; a++) {
        const fa = forward[k]![a]! / z;
        if (fa === 0) continue;
        const la = this.#logit[a]!;
        for (let b = 0; b < t; b++) {
          const w = fa * bw[b]!;
          if (w === 0) continue;
          spans[k]! += w;
          put(
            sizes[k]! + span * (la - logitT) / (la - this.#logit[b]!),
            w,
          );
        }
      }
    }
    let sum = 0, mean = 0, sq = 0;
    for (let i = 0; i < bins.length; i++) {
      const x = lo + i * STEP;
      sum += bins[i]!;
      mean += bins[i]! * x;
      sq += bins[i]! * x * x;
    }
    mean /= sum;
    const variance = sq / sum - mean * mean;
    let acc = 0, low = NaN, high = NaN;
    for (let i = 0; i < bins.length; i++) {
      acc += bins[i]! / sum;
      const x = Math.round((lo + i * STEP) * 100) / 100;
      if (Number.isNaN(low) && acc >= 0.025) low = x;
      if (Number.isNaN(high) && acc >= 0.975) high = x;
    }
    return { mean, variance, low, high, below, above, spans };
  }
}

function normalised(v: Float64Array): Float64Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]!;
  if (s > 0) { for (let i = 0; i < v.length; i++) v[i] = v[i]! / s; }
  return v;
}
