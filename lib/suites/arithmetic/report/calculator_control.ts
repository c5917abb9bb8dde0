/**
 * The calculator control group: bare and tool accuracy side by side.
 *
 * @module
 */

/** One judged sample, as read from result rows. */
export interface ControlOutcome {
  /** The model name. */
  model: string;
  /** The template id that rendered the prompt. */
  template: string;
  /** Whether the sample was judged correct. */
  correct: boolean;
  /** Grouping value (e.g. the family or digit count); `""` when not grouped. */
  group?: string | number | boolean | null;
}

/** Options for {@linkcode compareBareAndTool}. */
export interface CompareBareAndToolOptions {
  /** Templates counted as bare. @default ["direct"] */
  bare?: readonly string[];
  /** Templates counted as tool-assisted. @default ["calculator"] */
  tool?: readonly string[];
}

/** Accuracy counts of one arm. */
export interface ArmAccuracy {
  /** Samples in the arm. */
  n: number;
  /** Samples judged correct. */
  correct: number;
  /** correct / n, or null when n is 0. */
  accuracy: number | null;
}

/** One (model, group) row of the side-by-side table. */
export interface BareVsToolRow {
  /** The model name. */
  model: string;
  /** The grouping value as text; `""` when not grouped. */
  group: string;
  /** Accuracy without tools. */
  bare: ArmAccuracy;
  /** Accuracy with the calculator tool. */
  tool: ArmAccuracy;
  /** tool − bare accuracy, or null when an arm is empty. */
  gain: number | null;
}

function arm(): ArmAccuracy {
  return { n: 0, correct: 0, accuracy: null };
}

/**
 * Puts bare and calculator accuracy side by side per model (and group).
 * Rows of other templates are ignored.
 *
 * @param rows Judged samples.
 * @param options Which templates are bare and which use the tool.
 * @returns One row per (model, group), sorted by model then group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareBareAndTool } from "./calculator_control.ts";
 * const rows = [
 *   { model: "m", template: "direct", correct: false },
 *   { model: "m", template: "direct", correct: true },
 *   { model: "m", template: "calculator", correct: true },
 * ];
 * const [r] = compareBareAndTool(rows);
 * assert.equal(r!.bare.accuracy, 0.5);
 * assert.equal(r!.tool.accuracy, 1);
 * assert.equal(r!.gain, 0.5);
 * ```
 */
export function compareBareAndTool(
  rows: readonly ControlOutcome[],
  options: CompareBareAndToolOptions = {},
): BareVsToolRow[] {
  const { bare = ["direct"], tool = ["calculator"] } = options;
  const cells = new Map<string, BareVsToolRow>();
  for (const row of rows) {
    const side = bare.includes(row.template)
      ? "bare"
      : tool.includes(row.template)
      ? "tool"
      : null;
    if (side === null) continue;
    const group = row.group === undefined || row.group === null
      ? ""
      : String(row.group);
    const key = JSON.stringify([row.model, group]);
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = { model: row.model, group, bare: arm(), tool: arm(), gain: null };
      cells.set(key, cell);
    }
    const a = cell[side];
    a.n++;
    if (row.correct) a.correct++;
    a.accuracy = a.correct / a.n;
    cell.gain = cell.bare.accuracy === null || cell.tool.accuracy === null
      ? null
      : cell.tool.accuracy - cell.bare.accuracy;
  }
  return [...cells.values()].sort((x, y) =>
    x.model === y.model
      ? x.group.localeCompare(y.group, "en", { numeric: true })
      : x.model < y.model
      ? -1
      : 1
  );
}
