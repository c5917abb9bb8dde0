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
 * @param pair The two model names, A then B.
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
 * const r = compareModels(frame, ["a", "b"]);
 * assert.equal(r.onlyA, 6);
 * assert.equal(r.mcnemarP, 0.03125);
 * ```
 */
export function compareModels(
  frame: DataFrame,
  [a, b]: readonly [string, string],
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
 * @param pair The baseline template id, then the template compared with it.
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
 * const [row] = compareTemplates(frame, ["direct", "cot"]).toRecords();
 * assert.equal(row?.gain, 0.5);
 * assert.equal(row?.extra_tokens, 70);
 * ```
 */
export function compareTemplates(
  frame: DataFrame,
  [a, b]: readonly [string, string],
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

/** The verdicts that flipped between two runs, for one suite and model. */
export interface RunFlips {
  /** The suite. */
  suite: string;
  /** The model. */
  model: string;
  /** Rows of both runs paired by (question_id, template, sample). */
  pairs: number;
  /** Pairs wrong (not correct) in run A and correct in run B. */
  fixed: number;
  /** Pairs correct in run A and not correct in run B. */
  broke: number;
  /** Exact McNemar two-sided p over `fixed` and `broke`. */
  mcnemarP: number;
  /** The flipped pairs, `question_id|template|sample`, fixed ones first. */
  flipped: { pair: string; fixed: boolean }[];
}

/**
 * Pairs two runs' rows by (suite, model, question_id, template, sample)
 * and lists, per suite and model, the pairs whose verdict flipped (correct
 * in one run, not in the other) with the exact McNemar test over them.
 *
 * @param frame Rows of both runs, with a `run` column.
 * @param pair Run A's id (the `run` value), then run B's.
 * @returns One entry per suite and model that both runs answered, sorted.
 * @throws {RangeError} When a run id names no row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { compareRuns } from "./compare.ts";
 *
 * const frame = pl.DataFrame({
 *   run: ["r1", "r1", "r2", "r2"], suite: ["s", "s", "s", "s"], model: ["m", "m", "m", "m"],
 *   question_id: ["q1", "q2", "q1", "q2"], template: ["t", "t", "t", "t"], sample: [0, 0, 0, 0],
 *   status: ["wrong", "correct", "correct", "correct"],
 * });
 * const [f] = compareRuns(frame, ["r1", "r2"]);
 * assert.equal(f!.fixed, 1);
 * assert.equal(f!.broke, 0);
 * assert.deepEqual(f!.flipped, [{ pair: "q1|t|0", fixed: true }]);
 * assert.throws(() => compareRuns(frame, ["r1", "r3"]), /Cannot compare runs r1 and r3/);
 * ```
 */
export function compareRuns(
  frame: DataFrame,
  [a, b]: readonly [string, string],
): RunFlips[] {
  const keys = ["suite", "model", "question_id", "template", "sample"].filter(
    (k) => frame.columns.includes(k),
  );
  const ok = frame.columns.includes("status")
    ? pl.col("status").eq(pl.lit("correct"))
    : pl.col("correct").eq(pl.lit(true));
  const side = (run: string, name: string) => {
    const rows = frame.filter(pl.col("run").eq(pl.lit(run)));
    if (rows.height === 0) {
      throw new RangeError(
        `Cannot compare runs ${a} and ${b}: no row has run ${run}; give two run folders whose rows carry different run ids`,
      );
    }
    return rows.select(
      ...keys.map((k) => pl.col(k)),
      ok.fillNull(false).alias(name),
    ).unique({ subset: keys, keep: "first", maintainOrder: true });
  };
  const joined = side(a, "_a").join(side(b, "_b"), { on: keys, how: "inner" })
    .sort(keys);
  const out = new Map<string, RunFlips>();
  for (const r of joined.toRecords()) {
    const id = `${r.suite}|${r.model}`;
    let f = out.get(id);
    if (!f) {
      f = {
        suite: String(r.suite ?? ""),
        model: String(r.model ?? ""),
        pairs: 0,
        fixed: 0,
        broke: 0,
        mcnemarP: 1,
        flipped: [],
      };
      out.set(id, f);
    }
    f.pairs++;
    if (r._a === r._b) continue;
    const pair = [r.question_id, r.template, r.sample].join("|");
    if (r._b) f.fixed++;
    else f.broke++;
    f.flipped.push({ pair, fixed: r._b === true });
  }
  return [...out.values()].map((f) => ({
    ...f,
    mcnemarP: mcnemarExact(f.broke, f.fixed),
    flipped: [
      ...f.flipped.filter((x) => x.fixed),
      ...f.flipped.filter((x) => !x.fixed),
    ],
  }));
}
