/**
 * A headline ({@linkcode headline}) as HTML: one table per suite with its
 * declared metrics, for the report's overview and the notebooks.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import { metricColumns, metricsFor } from "../judge/metric.ts";
import { type Headline, headline, type HeadlineOptions } from "./headline.ts";
import { distinct } from "./_distinct.ts";
import { escapeHtml } from "./plot.ts";
import { Table, tableHtml } from "./table.ts";

/** Options of {@linkcode headlineHtml}. */
export interface HeadlineHtmlOptions {
  /**
   * The frame to show (the headline's own by default; the overview passes
   * it with rows planned and stored joined in). @default the headline's frame
   */
  frame?: DataFrame;
  /** The generic columns to show after the metrics. @default ["error_rate"] */
  rest?: readonly string[];
}

/**
 * A headline as HTML: one table per suite (when grouped by suite), each
 * with the grouping columns, any columns between them and `n`, `n`, the
 * suite's metric columns and the generic `rest`, under a note that names
 * its metrics; then the notes of metrics that could not be computed.
 *
 * @param head What {@linkcode headline} returned.
 * @param options The frame to show and the columns after the metrics.
 * @returns HTML fragments, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { headline } from "./headline.ts";
 * import { headlineHtml } from "./headline_html.ts";
 * const frame = pl.DataFrame({ suite: ["s"], model: ["m"], status: ["correct"], correct: [true] });
 * const html = headlineHtml(await headline(frame, ["suite", "model"])).join("");
 * assert.match(html, /<h3>s<\/h3>/);
 * assert.match(html, /<th>accuracy<\/th><th>acc_lo<\/th>/);
 * assert.match(html, /<td class="num">100\.0%<\/td>/);
 * ```
 */
export function headlineHtml(
  head: Headline,
  options: HeadlineHtmlOptions = {},
): string[] {
  const { frame = head.frame, rest = ["error_rate"] } = options;
  const has = (c: string) => frame.columns.includes(c);
  const lead = frame.columns.slice(0, frame.columns.indexOf("n") + 1);
  const percent = (c: string) =>
    head.share(c) || /^(accuracy|acc_|.*_rate$)/.test(c);
  const parts: string[] = [];
  const suiteAt = head.by.indexOf("suite");
  // A suite planned but without a scored row (only in `frame`, with rows
  // planned joined in) still gets its table, with its declared columns.
  const blocks = [...head.suites];
  if (suiteAt >= 0) {
    for (const suite of distinct(frame, "suite").map(String)) {
      if (blocks.some((b) => b.suite === suite)) continue;
      const metrics = metricsFor([suite], head.sources);
      blocks.push({
        suite,
        metrics,
        columns: metrics.flatMap((m) => metricColumns(m, [])),
      });
    }
  }
  for (const block of blocks) {
    const shown = block.suite === null || suiteAt < 0
      ? frame
      : frame.filter(pl.col("suite").eq(pl.lit(block.suite)));
    const columns = [
      ...lead,
      ...block.columns.map((c) => c.name).filter(has),
      ...rest.filter(has),
    ];
    let table = shown.select(...columns);
    // A run without prices has no cost: a column of blanks says nothing.
    if (has("cost") && table.columns.includes("cost")) {
      if (table.getColumn("cost").nullCount() === table.height) {
        table = table.drop("cost");
      }
    }
    if (block.suite !== null) {
      parts.push(`<h3>${escapeHtml(block.suite)}</h3>`);
    }
    parts.push(
      `<p class="note">${
        block.metrics.map((m) =>
          `<b>${escapeHtml(m.label)}</b>: ${escapeHtml(m.description)}`
        ).join("; ")
      }.</p>`,
      tableHtml(table, { percent }),
    );
  }
  for (const note of head.notes) {
    parts.push(`<p class="note">${escapeHtml(note)}</p>`);
  }
  return parts;
}

/**
 * The headline of a frame as a table for notebooks: per group, `n`, each
 * suite's declared metrics and the error rate (one table per suite when
 * grouped by suite).
 *
 * @param frame Result rows (a frame from `loadRuns`).
 * @param by Grouping columns (those missing from the frame are skipped).
 *   @default ["suite", "model"]
 * @param options The suites whose declarations to read (a notebook
 *   passes `SUITES` from `lib/mod.ts`).
 * @returns A displayable table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { headlineTable } from "./headline_html.ts";
 * const frame = pl.DataFrame({ suite: ["s", "s"], model: ["m", "m"], status: ["correct", "wrong"], correct: [true, false] });
 * const html = (await headlineTable(frame, ["model"])).toJupyter()["text/html"]!;
 * assert.match(html, /<td>m<\/td><td class="num">2<\/td><td class="num">50\.0%<\/td>/);
 * ```
 */
export async function headlineTable(
  frame: DataFrame,
  by: readonly string[] = ["suite", "model"],
  options: HeadlineOptions = {},
): Promise<Table> {
  return new Table(headlineHtml(await headline(frame, by, options)).join(""));
}
