/**
 * The linear-algebra suite's own report sections: the same functions its
 * notebook (`notebooks/02-linalg.ipynb`) calls, over its rows.
 *
 * @module
 */
import type { DataFrame } from "../../report/mod.ts";
import { tableHtml } from "../../report/table.ts";
import { crossingSectionParts } from "../../report/crossing_section.ts";
import {
  guardedSection,
  presentSections,
  type ReportSection,
} from "../../report/suite_view.ts";
import {
  formatSensitivity,
  linalgCliff,
  linalgErrorChart,
  linalgErrorsBySize,
  linalgTiers,
} from "./report.ts";

/**
 * The linear-algebra sections: the accuracy cliff by size per task, each
 * model's breaking point per task with its interval, model tiers, forensic error families by size, and format sensitivity.
 *
 * @param frame This suite's rows (from `loadRuns`).
 * @returns The sections that the rows can support.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { linalgSections } from "./sections.ts";
 * const frame = pl.DataFrame({ model: ["m"], suite: ["linalg"], status: ["correct"], correct: [true] });
 * // Without task and size columns each section says what it lacks.
 * assert.ok(linalgSections(frame).every((s) => s.parts.length > 0));
 * ```
 */
export function linalgSections(frame: DataFrame): ReportSection[] {
  return presentSections([
    guardedSection("Accuracy cliff by matrix size", () => [linalgCliff(frame)]),
    guardedSection(
      "Breaking points by matrix size",
      () =>
        frame.height === 0 ? [] : crossingSectionParts(frame, {
          by: ["model", "task"],
          dimension: "size",
          facet: "task",
          suite: "linalg",
        }),
    ),
    guardedSection("Model tiers (LinAlg-Bench)", () => [
      tableHtml(linalgTiers(frame)),
    ]),
    guardedSection("Forensic error families by size", () => [
      linalgErrorChart(frame),
      tableHtml(linalgErrorsBySize(frame)),
    ]),
    guardedSection("Input format sensitivity", () => {
      const table = formatSensitivity(frame);
      return table.height === 0 ? [] : [tableHtml(table)];
    }),
  ]);
}
