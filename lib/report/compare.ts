import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import { mcnemarExact } from "./mcnemar.ts";
import { pairedBootstrap } from "./bootstrap.ts";
import { wilsonInterval } from "./wilson.ts";

/** A paired comparison of two systems on the same questions. */
export interface PairedComparison {
  /** Name of system A (a model or template). */
  a: string;
  /** Name of system B. */
  b: string;
  /** Questions (× template × sample) both answered. */
  pairs: number;
  /** A's accuracy over the pairs (0–1). */
  accuracyA: number;
  /** B's accuracy over the pairs (0–1). */
  accuracyB: number;
  /** Both right / only A right / only B right / both wrong. */
  bothRight: number;
  /** Pairs only A got right. */
  onlyA: number;
  /** Pairs only B got right. */
  onlyB: number;
  /** Pairs both got wrong. */
  bothWrong: number;
  /** Exact McNemar two-sided p-value. */
  mcnemarP: number;
  /** Seeded paired bootstrap of accuracyA − accuracyB. */
  bootstrap: { diff: number; lo: number; hi: number };
}

/** Options for {@linkcode compareModels}. */
export interface CompareModelsOptions {
  /** Bootstrap seed. @default {0} */
  seed?: number;
  /** Bootstrap resamples. @default {2000} */
  resamples?: number;
}

/**
 * Compares two models on the questions both answered, pairing rows by
 * (question_id, template, sample): exact McNemar and a seeded paired
 * bootstrap of the accuracy difference.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param a First model name.
 * @param b Second model name.
 * @param options Bootstrap seed and resamples.
 * @returns Counts, accuracies, McNemar p and the bootstrap interval.
 * @throws {RangeError} When the models share no question.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { compareModels } from "./mod.ts";
 *
 * const q = ["q1", "q2", "q3", "q4", "q5", "q6"];
 * const frame = pl.DataFrame({
 *   model: [...q.map(() => "a"), ...q.map(() => "b")],
 *   question_id: [...q, ...q],
 *   template: Array(12).fill("direct"),
 *   sample: Array(12).fill(0),
 *   correct: [true, true, true, true, true, true, false, false, false, false, false, false],
 * });
 * const r = compareModels(frame, "a", "b");
 * assert.equal(r.onlyA, 6);
 * assert.equal(r.mcnemarP, 0.03125);
 * ```
 */
export function compareModels(
  frame: DataFrame,
  a: string,
  b: string,
  options: CompareModelsOptions = {},
): PairedComparison {
  const keys = ["question_id", "template", "sample"].filter((k) =>
    frame.columns.includes(k)
  );
  const side = (m: string, name: string) =>
    frame.filter(pl.col("model").eq(pl.lit(m)))
      .select(...keys, pl.col("correct").alias(name))
      .unique({ subset: keys, keep: "first", maintainOrder: true });
  const joined = side(a, "_a").join(side(b, "_b"), { on: keys, how: "inner" })
    .sort(keys);
  return paired(
    a,
    b,
    joined.getColumn("_a").toArray() as boolean[],
    joined.getColumn("_b").toArray() as boolean[],
    options,
  );
}

function paired(
  a: string,
  b: string,
  ca: boolean[],
  cb: boolean[],
  options: CompareModelsOptions,
): PairedComparison {
  if (ca.length === 0) {
    throw new RangeError(
      `Cannot compare ${a} and ${b}: they share no question (same question_id, template and sample)`,
    );
  }
  let bothRight = 0, onlyA = 0, onlyB = 0, bothWrong = 0;
  ca.forEach((x, i) => {
    const y = cb[i];
    if (x && y) bothRight++;
    else if (x) onlyA++;
    else if (y) onlyB++;
    else bothWrong++;
  });
  const n = ca.length;
  const boot = pairedBootstrap(
    ca.map(Number),
    cb.map(Number),
    { seed: options.seed ?? 0, resamples: options.resamples ?? 2000 },
  );
  return {
    a,
    b,
    pairs: n,
    accuracyA: (bothRight + onlyA) / n,
    accuracyB: (bothRight + onlyB) / n,
    bothRight,
    onlyA,
    onlyB,
    bothWrong,
    mcnemarP: mcnemarExact(onlyA, onlyB),
    bootstrap: { diff: boot.diff, lo: boot.lo, hi: boot.hi },
  };
}

/**
 * Compares two templates (e.g. `direct` vs `cot`) per model on the same
 * questions: accuracy gained by the second, with its Wilson intervals and
 * exact McNemar p, against the extra completion tokens it spent.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param a Baseline template id.
 * @param b Template compared with it.
 * @returns One row per model: `pairs`, `acc_a`, `acc_b`, `gain`, `acc_b_lo`,
 * `acc_b_hi`, `tokens_a`, `tokens_b`, `extra_tokens`, `tokens_per_point`
 * (extra tokens per percentage point gained), `mcnemar_p`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { compareTemplates } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["m", "m", "m", "m"],
 *   question_id: ["q1", "q2", "q1", "q2"],
 *   sample: [0, 0, 0, 0],
 *   template: ["direct", "direct", "cot", "cot"],
 *   correct: [false, true, true, true],
 *   completion_tokens: [5, 5, 105, 45],
 * });
 * const [row] = compareTemplates(frame, "direct", "cot").toRecords();
 * assert.equal(row?.gain, 0.5);
 * assert.equal(row?.extra_tokens, 70);
 * ```
 */
export function compareTemplates(
  frame: DataFrame,
  a: string,
  b: string,
): DataFrame {
  const keys = ["model", "question_id", "sample"].filter((k) =>
    frame.columns.includes(k)
  );
  const side = (t: string, s: string) =>
    frame.filter(pl.col("template").eq(pl.lit(t)))
      .select(
        ...keys,
        pl.col("correct").alias(`c${s}`),
        pl.col("completion_tokens").cast(pl.Float64).alias(`t${s}`),
      )
      .unique({ subset: keys, keep: "first", maintainOrder: true });
  const joined = side(a, "a").join(side(b, "b"), { on: keys, how: "inner" });
  const rows: Record<string, unknown>[] = [];
  const models = [...new Set(joined.getColumn("model").toArray() as string[])]
    .sort();
  for (const model of models) {
    const sub = joined.filter(pl.col("model").eq(pl.lit(model)));
    const ca = sub.getColumn("ca").toArray() as boolean[];
    const cb = sub.getColumn("cb").toArray() as boolean[];
    const ta = sub.getColumn("ta").toArray() as number[];
    const tb = sub.getColumn("tb").toArray() as number[];
    const n = ca.length;
    const ka = ca.filter(Boolean).length;
    const kb = cb.filter(Boolean).length;
    const onlyA = ca.filter((x, i) => x && !cb[i]).length;
    const onlyB = ca.filter((x, i) => !x && cb[i]).length;
    const tokA = ta.reduce((s, x) => s + x, 0) / n;
    const tokB = tb.reduce((s, x) => s + x, 0) / n;
    const gain = (kb - ka) / n;
    const ci = wilsonInterval(kb, n);
    rows.push({
      model,
      pairs: n,
      acc_a: ka / n,
      acc_b: kb / n,
      gain,
      acc_b_lo: ci.lo,
      acc_b_hi: ci.hi,
      tokens_a: tokA,
      tokens_b: tokB,
      extra_tokens: tokB - tokA,
      tokens_per_point: gain > 0 ? (tokB - tokA) / (gain * 100) : null,
      mcnemar_p: mcnemarExact(onlyA, onlyB),
    });
  }
  return rows.length
    ? pl.DataFrame(rows)
    : pl.DataFrame({ model: [] as string[] });
}
