/**
 * The report's sections from the sample viewer: with two runs, the
 * verdicts that flipped between them (per suite and model, with the paired
 * test, each linked to its flip list in the viewer); then the viewer.
 *
 * @module
 */
import type { DataFrame } from "../frame.ts";
import { compareRuns, type RunFlips } from "../compare.ts";
import { escapeHtml } from "../plot.ts";
import type { ReportSection } from "../suite_view.ts";
import { viewerRows, type ViewerRowsOptions } from "./rows.ts";
import { viewerHtml } from "./html.ts";
import type { ViewerSuite } from "./types.ts";

/** A p-value as the tables print it. */
function pText(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** The fragment that opens the viewer on one suite and model's flips. */
function flipLink(f: RunFlips): string {
  const p = new URLSearchParams({
    view: "disagree",
    by: "run",
    "f.suite": f.suite,
    "f.model": f.model,
  });
  return `#explore?${p}`;
}

/**
 * The two-run table: per suite and model, pairs, fixed (wrong in A,
 * correct in B), broke (the reverse), McNemar p, and a link to the list.
 *
 * @param flips What `compareRuns` returned.
 * @param a Run A.
 * @param b Run B.
 * @returns The HTML fragment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flipsHtml } from "./sections.ts";
 * const html = flipsHtml([{ suite: "s", model: "m", pairs: 2, fixed: 1, broke: 0, mcnemarP: 1, flipped: [{ pair: "q|t|0", fixed: true }] }], "r1", "r2");
 * assert.match(html, /<td>s<\/td><td>m<\/td><td class="num">2<\/td><td class="num">1<\/td>/);
 * assert.match(html, /href="#explore\?view=disagree&amp;by=run&amp;f.suite=s&amp;f.model=m"/);
 * ```
 */
export function flipsHtml(
  flips: readonly RunFlips[],
  a: string,
  b: string,
): string {
  if (flips.length === 0) {
    return `<p class="note">Runs ${escapeHtml(a)} and ${
      escapeHtml(b)
    } share no (suite, model, question, template, sample): nothing to pair.</p>`;
  }
  const rows = flips.map((f) =>
    `<tr data-suite="${escapeHtml(f.suite)}" data-model="${
      escapeHtml(f.model)
    }"><td>${escapeHtml(f.suite)}</td><td>${
      escapeHtml(f.model)
    }</td><td class="num">${f.pairs}</td><td class="num">${f.fixed}</td><td class="num">${f.broke}</td><td class="num">${
      pText(f.mcnemarP)
    }</td><td>${
      f.fixed + f.broke === 0
        ? "none flipped"
        : `<a href="${escapeHtml(flipLink(f))}">${
          f.fixed + f.broke
        } flipped: open in the viewer</a>`
    }</td></tr>`
  ).join("");
  return `<p>Rows of the two runs paired by suite, model, question, template and sample. Fixed: not correct in ${
    escapeHtml(a)
  }, correct in ${
    escapeHtml(b)
  }; broke: the reverse. The exact McNemar test asks whether the flips lean one way.</p>
<table class="eval-table vw-flips" id="run-flips"><thead><tr><th>suite</th><th>model</th><th>pairs</th><th>fixed</th><th>broke</th><th>McNemar p</th><th>flip list</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The viewer's report sections: with exactly two runs in the rows, "Runs
 * compared" (the flips between them); then "Sample explorer" (the viewer).
 *
 * @param frame The report's rows (with a `suite` column).
 * @param suites The suites the report knows (dims, detail hooks).
 * @param options How rows are embedded.
 * @returns The sections.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { viewerSections } from "./sections.ts";
 *
 * const frame = pl.DataFrame({
 *   key: ["m|q|t|0", "m|q|t|0"], run: ["r1", "r2"], suite: ["s", "s"], model: ["m", "m"],
 *   question_id: ["q", "q"], template: ["t", "t"], sample: [0, 0], status: ["wrong", "correct"],
 * });
 * const sections = await viewerSections(frame, []);
 * assert.deepEqual(sections.map((s) => s.title), ["Runs compared: r1 → r2", "Sample explorer"]);
 * assert.match(sections[0]!.parts[0]!, /1 flipped/);
 * ```
 */
export async function viewerSections(
  frame: DataFrame,
  suites: readonly ViewerSuite[],
  options: ViewerRowsOptions = {},
): Promise<ReportSection[]> {
  const sections: ReportSection[] = [];
  // In the order the rows come: the first run folder given is run A.
  const runs = frame.columns.includes("run")
    ? [...new Set(frame.getColumn("run").toArray().map(String))]
    : [];
  if (runs.length === 2) {
    const [a, b] = runs.map(String) as [string, string];
    sections.push({
      title: `Runs compared: ${a} → ${b}`,
      parts: [flipsHtml(compareRuns(frame, [a, b]), a, b)],
    });
  }
  sections.push({
    title: "Sample explorer",
    parts: [viewerHtml(await viewerRows(frame, suites, options))],
  });
  return sections;
}
