/**
 * Aggregates over repeated samples of one question: majority vote (maj@k),
 * pass@k and agreement.
 *
 * @module
 */

/** One judged sample. */
export interface SampleOutcome {
  /** The question the sample answered. */
  questionId: string;
  /** Sample index within the question (0-based). */
  sample: number;
  /** Whether the sample was judged correct. */
  correct: boolean;
  /** The extracted answer in normal form, or null when nothing was extracted. */
  value: string | null;
}

/** Per-question aggregate. */
export interface QuestionAggregate {
  /** The question the samples answered. */
  questionId: string;
  /** Samples seen. */
  n: number;
  /** Correct samples. */
  c: number;
  /** The most frequent extracted value among the first k samples (ties: earliest), or null. */
  majority: string | null;
  /** Whether the majority value is a correct one (maj@k for this question). */
  majCorrect: boolean;
  /** Share of all n samples that gave the majority value. */
  agreement: number;
  /** Unbiased pass@k estimate, or null when n < k. */
  passAtK: number | null;
}

/**
 * The unbiased pass@k estimator 1 − C(n−c, k) / C(n, k), computed as a
 * stable product (no large binomials).
 *
 * @param counts The samples drawn (`n`), the correct ones among them (`c`)
 *   and the `k` in pass@k.
 * @returns The estimate in [0, 1].
 * @throws {RangeError} unless 0 ≤ c ≤ n and 1 ≤ k ≤ n.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { passAtK } from "./aggregate.ts";
 * assert.equal(passAtK({ n: 5, c: 0, k: 1 }), 0);
 * assert.equal(passAtK({ n: 5, c: 5, k: 3 }), 1);
 * assert.ok(Math.abs(passAtK({ n: 10, c: 3, k: 1 }) - 0.3) < 1e-12);
 * ```
 */
export function passAtK(
  { n, c, k }: { n: number; c: number; k: number },
): number {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k))) {
    throw new RangeError(`Cannot compute pass@k: n, c, k must be integers`);
  }
  if (c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(
      `Cannot compute pass@k: need 0 <= c <= n and 1 <= k <= n, got n=${n} c=${c} k=${k}`,
    );
  }
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/**
 * The most frequent non-null value (ties: the one seen first).
 *
 * @param values Values in sample order; nulls do not vote.
 * @returns The value and its count, or `{ value: null, count: 0 }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { majorityVote } from "./aggregate.ts";
 * assert.deepEqual(majorityVote(["7", null, "8", "8"]), { value: "8", count: 2 });
 * ```
 */
export function majorityVote(
  values: readonly (string | null)[],
): { value: string | null; count: number } {
  // Map keeps insertion order, so a strict ">" keeps the earliest value on ties.
  const counts = new Map<string, number>();
  for (const v of values) {
    if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  let best: string | null = null, bestCount = 0;
  for (const [v, c] of counts) {
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return { value: best, count: bestCount };
}

/**
 * Aggregates samples per question: maj@k over the first k samples (by
 * sample index), pass@k over all samples, and agreement.
 *
 * @param rows Judged samples, any order.
 * @param k The k of maj@k and pass@k. @default all samples of each question
 * @returns One aggregate per question, in first-seen order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { aggregateSamples } from "./aggregate.ts";
 * const rows = [
 *   { questionId: "q", sample: 0, correct: true, value: "4" },
 *   { questionId: "q", sample: 1, correct: false, value: "5" },
 *   { questionId: "q", sample: 2, correct: true, value: "4" },
 * ];
 * const [agg] = aggregateSamples(rows, 3);
 * assert.equal(agg!.majority, "4");
 * assert.equal(agg!.majCorrect, true);
 * assert.equal(agg!.passAtK, 1);
 * ```
 */
export function aggregateSamples(
  rows: readonly SampleOutcome[],
  k?: number,
): QuestionAggregate[] {
  const groups = new Map<string, SampleOutcome[]>();
  for (const row of rows) {
    const g = groups.get(row.questionId);
    if (g === undefined) groups.set(row.questionId, [row]);
    else g.push(row);
  }
  const out: QuestionAggregate[] = [];
  for (const [questionId, group] of groups) {
    const sorted = [...group].sort((a, b) => a.sample - b.sample);
    const n = sorted.length;
    const c = sorted.filter((r) => r.correct).length;
    const kk = k ?? n;
    const first = sorted.slice(0, kk);
    const { value } = majorityVote(first.map((r) => r.value));
    const majCorrect = value !== null &&
      first.some((r) => r.value === value && r.correct);
    const agreement = value === null
      ? 0
      : sorted.filter((r) => r.value === value).length / n;
    out.push({
      questionId,
      n,
      c,
      majority: value,
      majCorrect,
      agreement,
      passAtK: kk >= 1 && kk <= n ? passAtK({ n, c, k: kk }) : null,
    });
  }
  return out;
}
