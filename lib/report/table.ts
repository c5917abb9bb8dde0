import type { DataFrame } from "./frame.ts";
import { HtmlDisplay } from "./display.ts";
import { escapeHtml } from "./plot.ts";

/** Options for {@linkcode tableHtml}. */
export interface TableHtmlOptions {
  /** Rows shown at most; a note says how many were left out. @default {200} */
  maxRows?: number;
  /** Columns shown as percentages (0.5 → 50.0%). @default rates, accuracy and interval columns */
  percent?: (column: string) => boolean;
}

const defaultPercent = (c: string) => /^(accuracy|acc_|.*_rate$|gain$)/.test(c);

/**
 * Renders a frame as an HTML table with readable numbers (percentages for
 * rates, 3 significant digits otherwise). Unlike the kernel's own frame
 * display it says when rows were cut.
 *
 * @param frame The frame.
 * @param options Row limit and percentage columns.
 * @returns A `<table>` fragment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { tableHtml } from "./mod.ts";
 *
 * const html = tableHtml(pl.DataFrame({ model: ["a<b"], accuracy: [0.5] }));
 * assert.match(html, /<td>a&lt;b<\/td><td class="num">50\.0%<\/td>/);
 * ```
 */
export function tableHtml(
  frame: DataFrame,
  options: TableHtmlOptions = {},
): string {
  const { maxRows = 200, percent = defaultPercent } = options;
  const cols = frame.columns;
  const rows = frame.head(maxRows).toRecords();
  const cell = (c: string, v: unknown) => {
    if (v === null || v === undefined) return `<td class="null">–</td>`;
    if (typeof v === "number" || typeof v === "bigint") {
      return `<td class="num">${
        escapeHtml(formatNumber(c, Number(v), percent))
      }</td>`;
    }
    return `<td>${
      escapeHtml(Array.isArray(v) ? v.join(", ") : String(v))
    }</td>`;
  };
  const head = cols.map((c) => `<th>${escapeHtml(c)}</th>`).join("");
  const body = rows.map((r) =>
    `<tr>${cols.map((c) => cell(c, r[c])).join("")}</tr>`
  )
    .join("\n");
  const more = frame.height > maxRows
    ? `<p class="note">${frame.height - maxRows} more rows not shown.</p>`
    : "";
  return `<div style="overflow-x:auto"><table class="eval-table"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>${more}`;
}

function formatNumber(
  column: string,
  v: number,
  percent: (c: string) => boolean,
): string {
  if (Number.isNaN(v)) return "NaN";
  if (percent(column)) return `${(v * 100).toFixed(1)}%`;
  if (Number.isInteger(v)) return String(v);
  if (Math.abs(v) >= 100) return v.toFixed(0);
  return v.toPrecision(3);
}

/** An HTML table that shows itself as `text/html` in Jupyter (an {@linkcode HtmlDisplay}). */
export class Table extends HtmlDisplay {}

/**
 * A frame as a readable table for notebooks: rates as percentages, other
 * numbers to 3 significant digits, and a note when rows were cut (the
 * kernel's own frame display prints full floats and cuts at 50 rows
 * silently).
 *
 * @param frame The frame.
 * @param options Row limit and percentage columns.
 * @returns A displayable table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { table } from "./mod.ts";
 *
 * const t = table(pl.DataFrame({ acc_lo: [0.12345] }));
 * assert.match(t.toJupyter()["text/html"]!, /12\.3%/);
 * ```
 */
export function table(
  frame: DataFrame,
  options: TableHtmlOptions = {},
): Table {
  return new Table(tableHtml(frame, options));
}
