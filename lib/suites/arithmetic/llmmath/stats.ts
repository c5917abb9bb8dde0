/**
 * The llmmath per-item pass-rate report (as sanand0/llmmath reports it).
 *
 * @module
 */
import { LLMMATH_ITEMS } from "./questions.ts";

/** One judged llmmath sample. */
export interface LlmmathOutcome {
  /** The model name. */
  model: string;
  /** The question's id. */
  questionId: string;
  /** Whether the sample was judged correct. */
  correct: boolean;
}

/** Pass rate of one model on one item. */
export interface LlmmathItemRate {
  /** The model name. */
  model: string;
  /** 1-based item number. */
  item: number;
  /** `"1234×5678"`. */
  label: string;
  /** Digits per operand. */
  digits: number;
  /** Samples judged correct. */
  passes: number;
  /** Samples judged. */
  runs: number;
  /** passes / runs. */
  rate: number;
}

/**
 * Pass rate per (model, item) over the repeats, in item order; rows that are
 * not llmmath items are ignored.
 *
 * @param rows Judged samples.
 * @returns One row per model and item that has samples.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { llmmathReport } from "./stats.ts";
 * const id = "arithmetic/llmmath/12x12";
 * const rows = [true, true, false, true, true].map((correct) => ({ model: "m", questionId: id, correct }));
 * const [r] = llmmathReport(rows);
 * assert.equal(r!.rate, 0.8);
 * assert.equal(r!.label, "12×12");
 * ```
 */
export function llmmathReport(
  rows: readonly LlmmathOutcome[],
): LlmmathItemRate[] {
  const index = new Map(
    LLMMATH_ITEMS.map(([a, b], i) => [`arithmetic/llmmath/${a}x${b}`, i]),
  );
  const cells = new Map<string, LlmmathItemRate>();
  for (const row of rows) {
    const i = index.get(row.questionId);
    if (i === undefined) continue;
    const [a, b] = LLMMATH_ITEMS[i] as readonly [string, string];
    const key = `${row.model}\u0000${i}`;
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = {
        model: row.model,
        item: i + 1,
        label: `${a}×${b}`,
        digits: Math.max(a.length, b.length),
        passes: 0,
        runs: 0,
        rate: 0,
      };
      cells.set(key, cell);
    }
    cell.runs++;
    if (row.correct) cell.passes++;
    cell.rate = cell.passes / cell.runs;
  }
  return [...cells.values()].sort((x, y) =>
    x.model < y.model ? -1 : x.model > y.model ? 1 : x.item - y.item
  );
}
