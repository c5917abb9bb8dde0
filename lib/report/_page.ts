/**
 * The frame of the standalone report page: the document head with its
 * style sheet, the title, a table of contents and one `<section>` per
 * report section; no external resources. Charts are drawn as they come
 * near the viewport (`_lazy_charts.ts`), so the page opens quickly.
 *
 * @module
 */
import { GENERATOR_META } from "../store/mod.ts";
import { escapeHtml } from "./plot.ts";
import {
  LAZY_CHART_SCRIPT,
  LAZY_CHART_STYLE,
  lazyCharts,
} from "./_lazy_charts.ts";
import type { ReportSection } from "./suite_view.ts";

/** A fragment id for the n-th section. */
const anchor = (i: number) => `s${i + 1}`;

/**
 * The report as one HTML document.
 *
 * @param title The page title, also its heading.
 * @param header HTML between the heading and the contents (what the runs are).
 * @param sections The sections, each a `<section>` with an anchor the contents link to.
 * @returns The document.
 */
export function pageHtml(
  title: string,
  header: string,
  sections: readonly ReportSection[],
): string {
  const toc = `<nav><h2>Contents</h2><ol>${
    sections.map((s, i) =>
      `<li><a href="#${anchor(i)}">${escapeHtml(s.title)}</a></li>`
    ).join("")
  }</ol></nav>`;
  const body = sections.map((s, i) =>
    `<section id="${anchor(i)}"><h2>${escapeHtml(s.title)}</h2>\n${
      lazyCharts(s.parts.join("\n"))
    }</section>`
  ).join("\n");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">${GENERATOR_META}<title>${
    escapeHtml(title)
  }</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222}
table.eval-table{border-collapse:collapse;margin:8px 0 16px;font-size:12px}
.eval-table th,.eval-table td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
.eval-table td.num{text-align:right;font-variant-numeric:tabular-nums}
.eval-table td.null{color:#aaa}
.warn{color:#a40}
.run-warning{border:2px solid #c60;background:#fff4e5;padding:4px 16px;margin:12px 0}
.run-warning strong{color:#a40}
.note{color:#555}
.sim-banner{border-left:4px solid #4269d0;background:#eef2fb;padding:6px 12px}
.leaderboard .board-row{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.leaderboard .significance{margin:4px 0}
details>summary{cursor:pointer;color:#234;margin:8px 0}
nav h2{display:none}
nav ol{list-style:none;padding:0;margin:8px 0 16px;display:flex;flex-wrap:wrap;gap:4px 16px}
nav ol li::before{content:"§ ";color:#999}
section{margin-bottom:32px}
${LAZY_CHART_STYLE}
</style></head>
<body><h1>${escapeHtml(title)}</h1>
${header}
${toc}
${body}
<script>${LAZY_CHART_SCRIPT}</script>
</body></html>
`;
}
