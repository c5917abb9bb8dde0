/**
 * What the report needs to know about a suite, and nothing more: its
 * declared dims, its baseline template, its headline metrics and its own
 * sections. Suites satisfy this interface; the report never imports a
 * suite (its callers pass the suites the registry loaded).
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";
import type { DimSpec } from "../types.ts";
import type { Metric } from "../judge/metric.ts";
import { MissingColumnsError } from "./columns.ts";
import { escapeHtml } from "./plot.ts";

/** One part of a report: a heading with tables and charts. */
export interface ReportSection {
  /** The section heading. */
  title: string;
  /** HTML fragments (tables, charts, notes) in order. */
  parts: string[];
}

/** A suite as the report sees it. */
export interface SuiteView {
  /** The suite's registry name, e.g. `"arithmetic"`. */
  name: string;
  /** One line on what the suite measures. */
  description: string;
  /** The dims its questions carry, with kind and label. */
  dims: readonly DimSpec[];
  /** The template other templates are compared against. */
  baseline: string;
  /**
   * Its headline metrics, over its scored rows (`isScored`): what the
   * report's overview, the sweep's closing table, `summary.csv` and the
   * notebooks' headline tables show for it, in this order.
   * @default {DEFAULT_METRICS} (accuracy and format-valid rate)
   */
  metrics?: readonly Metric[];
  /**
   * The suite's own report sections over its rows (the same functions its
   * notebook calls). Receives only this suite's rows. Asynchronous so a
   * suite can import its analysis code (and Polars) only when a report is
   * made, not when a sweep starts.
   */
  sections?(frame: DataFrame): Promise<ReportSection[]>;
}

/** One part of a section: HTML, or something that renders to HTML. */
export type SectionPart = string | { html: string };

/**
 * Builds a report section, or a note when the rows cannot make it (a
 * suite's section over a frame that lacks what it needs says so instead of
 * breaking the whole report). Returns null when there is nothing to show.
 *
 * @param title The section heading.
 * @param build Returns the parts, or an empty list when the rows hold
 *   nothing for this section.
 * @returns The section, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guardedSection } from "./suite_view.ts";
 * assert.deepEqual(guardedSection("A", () => ["<p>x</p>"]), { title: "A", parts: ["<p>x</p>"] });
 * assert.equal(guardedSection("B", () => []), null);
 * assert.match(guardedSection("C", () => { throw new Error("no size column"); })!.parts[0]!, /no size column/);
 * ```
 */
export function guardedSection(
  title: string,
  build: () => SectionPart[],
): ReportSection | null {
  try {
    const parts = build().map((p) => typeof p === "string" ? p : p.html);
    return parts.length === 0 ? null : { title, parts };
  } catch (error) {
    return { title, parts: [notShownHtml(error)] };
  }
}

/**
 * Why a part of a report is not shown, as a note: for columns the rows do
 * not have (a run of the suite whose questions came from a dataset without
 * those dims), which ones and that the part is skipped; for anything
 * else, the error's message.
 *
 * @param error What building the part threw.
 * @returns A `<p class="note">` fragment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notShownHtml } from "./suite_view.ts";
 * import { MissingColumnsError } from "./columns.ts";
 * assert.match(notShownHtml(new MissingColumnsError("x", ["family", "digits"])), /these rows have no family, digits/);
 * assert.match(notShownHtml(new Error("boom")), /Not shown for these rows: boom/);
 * ```
 */
export function notShownHtml(error: unknown): string {
  if (error instanceof MissingColumnsError) {
    return `<p class="note">Skipped: this part needs ${
      escapeHtml(error.missing.join(", "))
    }, and these rows have no ${
      escapeHtml(error.missing.join(", "))
    } (questions from a dataset that does not give them).</p>`;
  }
  const message = escapeHtml(
    error instanceof Error ? error.message : String(error),
  );
  return `<p class="note">Not shown for these rows: ${message}</p>`;
}

/**
 * The sections that could be built, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { presentSections } from "./suite_view.ts";
 * assert.equal(presentSections([null, { title: "t", parts: ["p"] }]).length, 1);
 * ```
 */
export function presentSections(
  sections: readonly (ReportSection | null)[],
): ReportSection[] {
  return sections.filter((s): s is ReportSection => s !== null);
}
