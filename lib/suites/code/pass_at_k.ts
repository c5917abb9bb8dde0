/**
 * pass@k of the code suite's rows: the unbiased estimate per problem, its
 * mean per group with the first-attempt pass rate, and the curve over k.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import { requireColumns } from "../../report/columns.ts";
import { passAtK } from "../../judge/aggregate.ts";
import { codeOnly, type Row } from "./_rows.ts";

/** The columns that identify one problem's samples, beside `by`. */
function unitColumns(frame: DataFrame, by: readonly string[]): string[] {
  const extra = ["source", "problem", "language", "template"].filter((c) =>
    frame.columns.includes(c)
  );
  return [...new Set([...by, ...extra])];
}

/** Options of {@linkcode passAtKTable}. */
export interface PassAtKTableOptions {
  /** The k values. @default {[1, 2, 5]} */
  ks?: readonly number[];
  /** Grouping columns. @default {["model"]} */
  by?: readonly string[];
}

/**
 * Unbiased pass@k per problem (n samples, c correct; null when n < k), its
 * mean per `by` group, and the first-attempt pass rate (sample 0). A
 * problem is one (`by`…, source, problem, language, template) — whichever
 * of those columns the frame has.
 *
 * @param frame Code-suite rows with `model`, `problem`, `correct` (and `sample` for the first attempt).
 * @param options The k values (`ks`) and the grouping columns (`by`).
 * @returns Columns `by`…, `problems`, `samples_min`, `pass@<k>` per k, `first_attempt_rate`.
 * @throws {RangeError} When a needed column is missing or a k is not a positive integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { passAtKTable } from "./pass_at_k.ts";
 * const frame = pl.DataFrame({
 *   model: ["m", "m", "m", "m", "m"], problem: ["p", "p", "p", "p", "p"],
 *   sample: [0, 1, 2, 3, 4], correct: [false, true, false, true, false],
 * });
 * const [row] = passAtKTable(frame).toRecords();
 * assert.ok(Math.abs(Number(row!["pass@1"]) - 0.4) < 1e-12);
 * assert.ok(Math.abs(Number(row!["pass@2"]) - 0.7) < 1e-12);
 * assert.equal(row!["pass@5"], 1);
 * assert.equal(row!.first_attempt_rate, 0);
 * ```
 */
export function passAtKTable(
  frame: DataFrame,
  { ks = [1, 2, 5], by = ["model"] }: PassAtKTableOptions = {},
): DataFrame {
  for (const k of ks) {
    if (!Number.isInteger(k) || k < 1) {
      throw new RangeError(
        `Cannot compute pass@k: k must be a positive integer, got ${k}; pass ks like [1, 2, 5]`,
      );
    }
  }
  const units = perProblem(frame, by);
  const rows = units.map((u) => {
    const out: Row = {};
    for (const c of by) out[c] = u[c];
    for (const k of ks) {
      out[`pass@${k}`] = k <= u.n ? passAtK({ n: u.n, c: u.c, k }) : null;
    }
    out["first"] = u.first;
    out["n"] = u.n;
    return out;
  });
  const schema: Record<string, pl.DataType> = {
    n: pl.Int64,
    first: pl.Float64,
  };
  for (const k of ks) schema[`pass@${k}`] = pl.Float64;
  for (const c of by) schema[c] = frame.getColumn(c).dtype;
  const cols: Record<string, unknown[]> = {};
  for (const name of Object.keys(schema)) {
    cols[name] = rows.map((r) => r[name] ?? null);
  }
  const perUnit = pl.DataFrame(cols, { schema });
  const grouped = perUnit.groupBy([...by]).agg(
    pl.len().alias("problems"),
    pl.col("n").min().alias("samples_min"),
    ...ks.map((k) => pl.col(`pass@${k}`).mean().alias(`pass@${k}`)),
    pl.col("first").mean().alias("first_attempt_rate"),
  );
  return by.length > 0 ? grouped.sort([...by]) : grouped;
}

/** Samples and correct samples per problem. */
function perProblem(
  frame: DataFrame,
  by: readonly string[],
): (Row & { n: number; c: number; first: number | null })[] {
  requireColumns(frame, [...by, "problem", "correct"], {
    action: "compute pass@k",
    suite: "code",
  });
  const f = codeOnly(frame);
  const units = unitColumns(f, by);
  const correct = pl.col("correct").cast(pl.Bool).fillNull(false)
    .cast(pl.Int64);
  const first = f.columns.includes("sample")
    ? correct.filter(pl.col("sample").eq(pl.lit(0))).cast(pl.Float64).mean()
    : pl.lit(null).cast(pl.Float64);
  return f.groupBy(units).agg(
    pl.len().alias("__n"),
    correct.sum().alias("__c"),
    first.alias("__first"),
  ).toRecords().map((r) => ({
    ...r,
    n: Number(r["__n"]),
    c: Number(r["__c"]),
    first: r["__first"] === null || r["__first"] === undefined
      ? null
      : Number(r["__first"]),
  }));
}

/**
 * pass@k for k = 1..n (the largest sample count), per `by` group, in long
 * form for a curve: only problems with at least k samples count at k.
 *
 * @param frame Code-suite rows with `model`, `problem`, `correct`.
 * @param by Grouping columns. @default {["model"]}
 * @returns Columns `by`…, `k`, `pass_at_k`, `problems`.
 * @throws {RangeError} When a needed column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { passAtKCurve } from "./pass_at_k.ts";
 * const frame = pl.DataFrame({ model: ["m", "m"], problem: ["p", "p"], correct: [true, false] });
 * const curve = passAtKCurve(frame).toRecords();
 * assert.deepEqual(curve.map((r) => [r.k, r.pass_at_k]), [[1, 0.5], [2, 1]]);
 * ```
 */
export function passAtKCurve(
  frame: DataFrame,
  by: readonly string[] = ["model"],
): DataFrame {
  const units = perProblem(frame, by);
  const maxN = Math.max(0, ...units.map((u) => u.n));
  const groups = new Map<string, { key: Row; units: typeof units }>();
  for (const u of units) {
    const key: Row = {};
    for (const c of by) key[c] = u[c];
    const id = JSON.stringify(by.map((c) => u[c]));
    const g = groups.get(id) ?? { key, units: [] };
    g.units.push(u);
    groups.set(id, g);
  }
  const rows: Row[] = [];
  for (const { key, units: us } of groups.values()) {
    for (let k = 1; k <= maxN; k++) {
      const ok = us.filter((u) => u.n >= k);
      if (ok.length === 0) continue;
      const mean = ok.reduce((s, u) => s + passAtK({ n: u.n, c: u.c, k }), 0) /
        ok.length;
      rows.push({ ...key, k, pass_at_k: mean, problems: ok.length });
    }
  }
  // Polars names columns by the schema's key order: keep it the data's order.
  const schema: Record<string, pl.DataType> = {};
  for (const c of by) schema[c] = frame.getColumn(c).dtype;
  schema["k"] = pl.Int64;
  schema["pass_at_k"] = pl.Float64;
  schema["problems"] = pl.Int64;
  const names = Object.keys(schema);
  const cols: Record<string, unknown[]> = {};
  for (const name of names) cols[name] = rows.map((r) => r[name] ?? null);
  const out = pl.DataFrame(cols, { schema });
  return out.sort([...by, "k"]);
}
