import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { HtmlDisplay } from "./display.ts";

/**
 * A rendered chart: an {@linkcode HtmlDisplay} with a title. It shows
 * itself as `text/html` in Jupyter, so it survives nbconvert's HTML
 * export, which blanks `image/svg+xml` output; `html` (a `<div>` holding
 * Plot's SVG) goes straight into the standalone report.
 */
export class Chart extends HtmlDisplay {
  /** The chart's title. */
  readonly title: string;

  /** Wraps a title and an HTML fragment (see {@linkcode renderPlot}). */
  constructor(title: string, html: string) {
    super(html);
    this.title = title;
  }
}

/** Observable Plot's own options type: the argument of `Plot.plot`. */
export type ObservablePlotOptions = Plot.PlotOptions;
/** Plot options accepted by {@linkcode renderPlot} (those of `Plot.plot`, minus `document`). */
export type PlotOptions = Omit<ObservablePlotOptions, "document">;

/**
 * Renders Observable Plot options to a {@linkcode Chart} outside a browser,
 * with linkedom as the DOM (Plot needs a `document`; linkedom imports much
 * faster than jsdom).
 *
 * @param title Chart title, shown above it.
 * @param options `Plot.plot` options.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as Plot from "@observablehq/plot";
 * import { renderPlot } from "./mod.ts";
 *
 * const chart = renderPlot("dots", { marks: [Plot.dot([{ x: 1, y: 2 }], { x: "x", y: "y" })] });
 * assert.match(chart.html, /<svg[^>]*>.*<circle/s);
 * assert.equal(chart.toJupyter()["text/html"], chart.html);
 * ```
 */
export function renderPlot(title: string, options: PlotOptions): Chart {
  const { document } = parseHTML(
    "<!DOCTYPE html><html><head></head><body></body></html>",
  ) as unknown as { document: NonNullable<Plot.PlotOptions["document"]> };
  const node = Plot.plot({
    style: { background: "white", color: "black", fontSize: "12px" },
    ...options,
    document,
  });
  const inner = (node as unknown as { outerHTML: string }).outerHTML;
  const html = `<div class="eval-chart" data-title="${escapeHtml(title)}">` +
    `<h3 style="font:600 14px sans-serif;margin:8px 0">${
      escapeHtml(title)
    }</h3>${inner}</div>`;
  return new Chart(title, html);
}

/**
 * Escapes text for HTML content and attribute values.
 *
 * @param text Any text.
 * @returns The text with `&`, `<`, `>` and `"` escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeHtml } from "./mod.ts";
 *
 * assert.equal(escapeHtml('<a href="x">&</a>'), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** Tick labels for a 0–1 accuracy axis: `0.25` → `"25%"`. */
export const pct = (d: number): string => `${Math.round(d * 100)}%`;

/** The y scale every accuracy chart uses: 0–100%, gridded. */
export const ACCURACY_Y = {
  domain: [0, 1],
  tickFormat: pct,
  label: "accuracy",
  grid: true,
} as const;

/**
 * The categorical color scale of a chart's series (models, templates...).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seriesColor } from "./plot.ts";
 * assert.equal(seriesColor("model").label, "model");
 * ```
 */
export function seriesColor(label: string): {
  readonly legend: true;
  readonly type: "ordinal";
  readonly scheme: "tableau10";
  readonly label: string;
} {
  return {
    legend: true,
    type: "ordinal",
    scheme: "tableau10",
    label,
  } as const;
}
