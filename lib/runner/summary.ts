/**
 * Per-model summary of a results file, for the end of a sweep.
 *
 * @module
 */
import { readResults } from "../store/results_reader.ts";

/** One model's line of the summary. */
export interface ModelSummary {
  /** The model name as configured. */
  model: string;
  /** Rows stored. */
  n: number;
  /** Correct rows ÷ rows that got an answer (error rows excluded). */
  accuracy: number | null;
  /** Error rows (requests that failed for good). */
  errors: number;
}

/**
 * Streams a results file and counts rows, correct answers and errors per
 * model (in order of first appearance).
 *
 * @param path The `results.jsonl` path.
 * @returns One summary per model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeResults } from "./summary.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, [
 *   { key: "a", model: "m", correct: true, status: "correct" },
 *   { key: "b", model: "m", correct: false, status: "error" },
 *   { key: "c", model: "m", correct: false, status: "wrong" },
 * ].map((r) => JSON.stringify(r) + "\n").join(""));
 * const [m] = await summarizeResults(`${dir}/r.jsonl`);
 * assert.deepEqual(m, { model: "m", n: 3, accuracy: 1 / 3, errors: 1 });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function summarizeResults(path: string): Promise<ModelSummary[]> {
  const by = new Map<
    string,
    { n: number; correct: number; errors: number; unscored: number }
  >();
  for await (const row of readResults(path, { onBadLine: () => {} })) {
    let s = by.get(row.model);
    if (s === undefined) {
      by.set(row.model, s = { n: 0, correct: 0, errors: 0, unscored: 0 });
    }
    s.n++;
    if (row.status === "error") s.errors++;
    else if (row.status === "unscored") s.unscored++;
    else if (row.correct) s.correct++;
  }
  return [...by].map(([model, s]) => ({
    model,
    n: s.n,
    // As in lib/report's summarize: a failed request counts as not correct
    // (errors are shown beside it); rows without a key are left out.
    accuracy: s.n - s.unscored > 0 ? s.correct / (s.n - s.unscored) : null,
    errors: s.errors,
  }));
}

/**
 * Formats summaries as an aligned text table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSummary } from "./summary.ts";
 * const text = formatSummary([{ model: "sim-strong", n: 10, accuracy: 0.9, errors: 0 }]);
 * assert.match(text, /sim-strong\s+10\s+90\.0%\s+0/);
 * ```
 */
export function formatSummary(rows: readonly ModelSummary[]): string {
  const table = [
    ["model", "n", "accuracy", "errors"],
    ...rows.map((r) => [
      r.model,
      String(r.n),
      r.accuracy === null ? "-" : `${(100 * r.accuracy).toFixed(1)}%`,
      String(r.errors),
    ]),
  ];
  const widths = table[0]!.map((_, i) =>
    Math.max(...table.map((row) => row[i]!.length))
  );
  return table.map((row) =>
    row.map((cell, i) =>
      i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)
    )
      .join("  ")
  ).join("\n");
}
