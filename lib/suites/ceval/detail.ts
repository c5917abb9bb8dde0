/**
 * What the report's sample viewer shows of a C-Eval row: the options, the
 * key and the letter the model picked.
 *
 * @module
 */
import type { SampleDetail, SampleRow } from "../../report/viewer/mod.ts";

/**
 * The C-Eval suite's sample detail: one line per option, marking the key
 * and the pick.
 *
 * @param row The row.
 * @returns The options table and the letters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cevalDetail } from "./detail.ts";
 * const d = cevalDetail({ question: "1+1=?\nA. 1\nB. 2", expected: "B", extracted: "A", dims: { subject: "math" }, metrics: {} });
 * const options = d.parts[0];
 * assert.deepEqual(options?.kind === "table" && options.rows, [["A", "1", "picked"], ["B", "2", "key"]]);
 * ```
 */
export function cevalDetail(row: SampleRow): SampleDetail {
  const key = typeof row.expected === "string" ? row.expected : null;
  const picked = typeof row.extracted === "string" ? row.extracted : null;
  const rows = String(row.question ?? "").split("\n").flatMap((line) => {
    const m = /^\s*([A-D])[.．、:：]\s*(.*)$/.exec(line);
    if (!m) return [];
    const mark = [m[1] === key ? "key" : "", m[1] === picked ? "picked" : ""]
      .filter(Boolean).join(", ");
    return [[m[1]!, m[2]!, mark]];
  });
  return {
    parts: [
      {
        kind: "table",
        title: "Options",
        columns: ["letter", "option", ""],
        rows,
      },
      {
        kind: "fields",
        title: "Letters",
        fields: [
          ["key", key],
          ["picked", picked ?? "none found"],
          ["subject", row.dims.subject_zh ?? row.dims.subject ?? null],
        ],
      },
    ],
  };
}
