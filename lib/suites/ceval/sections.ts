/**
 * The C-Eval suite's own report sections: the same functions its notebook
 * (`notebooks/03-ceval.ipynb`) calls, over its rows.
 *
 * @module
 */
import type { DataFrame } from "../../report/mod.ts";
import { tableHtml } from "../../report/table.ts";
import {
  guardedSection,
  presentSections,
  type ReportSection,
} from "../../report/suite_view.ts";
import {
  cevalBySubject,
  cevalCategoryChart,
  cevalHardChart,
  cevalScored,
  cevalSummary,
} from "./report.ts";

/**
 * The C-Eval sections: the official summary (average, HARD, categories),
 * accuracy by category and on the HARD subset, and per subject.
 *
 * @param frame This suite's rows (from `loadRuns`).
 * @returns The sections that the rows can support.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalSections } from "./sections.ts";
 * const frame = pl.DataFrame({ model: ["m"], suite: ["ceval"], status: ["correct"], correct: [true] });
 * assert.ok(cevalSections(frame).length > 0);
 * ```
 */
export function cevalSections(frame: DataFrame): ReportSection[] {
  const scored = () => cevalScored(frame);
  return presentSections([
    guardedSection("C-Eval summary", () => [tableHtml(cevalSummary(frame))]),
    guardedSection(
      "By category and on HARD",
      () =>
        scored().height === 0
          ? []
          : [cevalCategoryChart(frame), cevalHardChart(frame)],
    ),
    guardedSection(
      "By subject",
      () =>
        scored().height === 0
          ? []
          : [tableHtml(cevalBySubject(frame), { maxRows: 60 })],
    ),
  ]);
}
