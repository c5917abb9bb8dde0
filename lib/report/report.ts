import pl from "nodejs-polars";
import { join } from "node:path";
import { escapeHtml } from "./chart.ts";
import type { Chart } from "./chart.ts";
import {
  accuracyByCategory,
  accuracyByDimension,
  accuracyHeatmap,
  costFrontier,
  errorTypes,
} from "./charts.ts";
import { compareModels, compareTemplates } from "./compare.ts";
import { allWrong } from "./all_wrong.ts";
import { type LoadedRuns, loadRuns } from "./load.ts";
import { summarize } from "./summarize.ts";
import { tableHtml } from "./table.ts";

import type { ReportSection, SuiteView } from "./suite_view.ts";
export type { ReportSection };

/** The columns of a breakdown table worth reading at a glance. */
function brief(summary: pl.DataFrame): pl.DataFrame {
  const keep = [
    "n",
    "accuracy",
    "acc_lo",
    "acc_hi",
    "parse_error_rate",
    "tokens_out_mean",
    "cost",
  ];
  const groups = summary.columns.slice(0, summary.columns.indexOf("n"));
  return summary.select(...groups, ...keep);
}

/**
 * Sorts dims columns into the ones worth plotting: numeric ones (digits,
 * size) for lines against a dimension, and categorical ones (family,
 * subject) with 2 to 30 values for category charts. Columns with a single
 * value say nothing and are left out, as are id-like ones with many values.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param dims Its dims columns.
 * @returns The numeric and the categorical dims, in the given order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { dimKinds } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ digits: [2, 4], family: ["add", "mul"], language: ["en", "en"] });
 * assert.deepEqual(dimKinds(frame, ["digits", "family", "language"]), {
 *   numeric: ["digits"],
 *   categorical: ["family"],
 * });
 * ```
 */
export function dimKinds(
  frame: pl.DataFrame,
  dims: readonly string[],
): { numeric: string[]; categorical: string[] } {
  const present = dims.filter((d) => frame.columns.includes(d));
  const numeric = present.filter((d) =>
    frame.getColumn(d).isNumeric() && distinct(frame, d).length > 1
  );
  const categorical = present.filter((d) => {
    const k = distinct(frame, d).length;
    return !frame.getColumn(d).isNumeric() && k > 1 && k <= 30;
  });
  return { numeric, categorical };
}

/** Distinct non-null values of a column. */
function distinct(frame: pl.DataFrame, col: string): unknown[] {
  if (!frame.columns.includes(col)) return [];
  return frame.select(pl.col(col)).unique().dropNulls().getColumn(col)
    .toArray();
}

/**
 * Builds the report's sections from loaded runs: overview by model (and
 * suite), a breakdown and a chart per dims column (lines with bands for
 * numeric ones, interval dots for categories), a model × category heatmap,
 * the token/cost frontier, outcome types, template and model comparisons,
 * and the questions every model got wrong.
 *
 * @param loaded What {@linkcode loadRuns} returned.
 * @returns The sections, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { reportSections } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "b"], suite: ["s", "s"], question_id: ["q", "q"], template: ["t", "t"],
 *   sample: [0, 0], status: ["correct", "wrong"], correct: [true, false], family: ["add", "mul"],
 * });
 * const sections = reportSections({ frame, dims: ["family"], runs: [], warnings: [] });
 * assert.ok(sections.some((s) => s.title === "Accuracy by family"));
 * ```
 */
export function reportSections(
  loaded: LoadedRuns,
  _suites: readonly SuiteView[] = [],
): ReportSection[] {
  const { frame, dims } = loaded;
  const sections: ReportSection[] = [];
  if (frame.height === 0) {
    return [{
      title: "No results",
      parts: ["<p>The run has no result rows yet.</p>"],
    }];
  }
  const overviewBy = distinct(frame, "suite").length > 1
    ? ["suite", "model"]
    : ["model"];
  sections.push({
    title: "Overview",
    parts: [
      tableHtml(summarize(frame, overviewBy)),
      errorTypes(frame).html,
    ],
  });
  const { numeric: numericDims, categorical: categoryDims } = dimKinds(
    frame,
    dims,
  );
  for (const d of numericDims) {
    sections.push({
      title: `Accuracy by ${d}`,
      parts: [
        accuracyByDimension(frame, d).html,
        tableHtml(
          brief(summarize(frame.filter(pl.col(d).isNotNull()), [d, "model"])),
        ),
      ],
    });
  }
  for (const d of categoryDims) {
    const sub = frame.filter(pl.col(d).isNotNull());
    const charts: Chart[] = [accuracyByCategory(sub, d)];
    if (distinct(frame, "model").length > 1) {
      charts.push(accuracyHeatmap(sub, d));
    }
    sections.push({
      title: `Accuracy by ${d}`,
      parts: [
        ...charts.map((c) => c.html),
        tableHtml(brief(summarize(sub, [d, "model"]))),
      ],
    });
  }
  const templates = distinct(frame, "template").map(String).sort();
  sections.push({
    title: "Cost frontier",
    parts: [costFrontier(frame).html].concat(
      templates.length > 1
        ? [
          costFrontier(frame, {
            series: "template",
            title: "Accuracy against tokens by template",
          })
            .html,
        ]
        : [],
    ),
  });
  if (templates.length > 1) {
    // The plain template is the natural baseline when there is one.
    const baseline = templates.includes("direct") ? "direct" : templates[0]!;
    const a = baseline;
    const rest = templates.filter((t) => t !== baseline);
    sections.push({
      title: "Templates compared",
      parts: rest.map((b) =>
        `<h3>${escapeHtml(b)} vs ${escapeHtml(a)}</h3>` +
        tableHtml(compareTemplates(frame, a, b))
      ),
    });
  }
  const models = distinct(frame, "model").map(String).sort();
  if (models.length > 1) {
    const rows = [];
    for (let i = 0; i < models.length; i++) {
      for (let j = i + 1; j < models.length; j++) {
        try {
          const r = compareModels(frame, models[i]!, models[j]!);
          rows.push({
            a: r.a,
            b: r.b,
            pairs: r.pairs,
            acc_a: r.accuracyA,
            acc_b: r.accuracyB,
            only_a: r.onlyA,
            only_b: r.onlyB,
            mcnemar_p: r.mcnemarP,
            diff_lo: r.bootstrap.lo,
            diff_hi: r.bootstrap.hi,
          });
        } catch {
          // Models that share no question have nothing to compare.
        }
      }
    }
    if (rows.length) {
      sections.push({
        title:
          "Models compared (paired: exact McNemar, bootstrap 95% CI of accuracy difference)",
        parts: [
          tableHtml(pl.DataFrame(rows), {
            percent: (c) => /^(acc_|diff_)/.test(c),
          }),
        ],
      });
    }
  }
  const wrong = allWrong(frame);
  sections.push({
    title: `Questions every model got wrong (${wrong.height})`,
    parts: [
      "<p>Check these answer keys first: where all models agree on one other answer, the key is the suspect.</p>",
      tableHtml(wrong, { maxRows: 50 }),
    ],
  });
  return sections;
}

/**
 * Renders loaded runs as one standalone HTML page (inline SVG charts, no
 * scripts, no external resources).
 *
 * @param loaded What {@linkcode loadRuns} returned.
 * @param title Page title.
 * @returns The HTML document.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { renderReport } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a"], status: ["correct"], correct: [true] });
 * const html = renderReport({ frame, dims: [], runs: [], warnings: [] }, "T");
 * assert.match(html, /^<!DOCTYPE html>/);
 * assert.match(html, /<svg/);
 * ```
 */
export function renderReport(
  loaded: LoadedRuns,
  title: string,
  suites: readonly SuiteView[] = [],
): string {
  const sections = reportSections(loaded, suites);
  const runs = loaded.runs.map((r) => {
    const m = r.manifest ?? {};
    const when = [
      m.startedAt ?? m.started_at ?? m.start,
      m.endedAt ?? m.finishedAt ?? m.end,
    ]
      .filter((x) => typeof x === "string").join(" → ");
    return `<li><code>${escapeHtml(r.dir)}</code>: ${r.rows} rows${
      when ? `, ${escapeHtml(when)}` : ""
    }${r.torn ? " (torn last line dropped)" : ""}</li>`;
  }).join("");
  const warnings = loaded.warnings.length
    ? `<ul class="warn">${
      loaded.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join("")
    }</ul>`
    : "";
  const body = sections.map((s) =>
    `<section><h2>${escapeHtml(s.title)}</h2>\n${s.parts.join("\n")}</section>`
  ).join("\n");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px auto;max-width:1000px;color:#222}
table.eval-table{border-collapse:collapse;margin:8px 0 16px;font-size:12px}
.eval-table th,.eval-table td{border:1px solid #ddd;padding:3px 6px;text-align:left}
.eval-table td.num{text-align:right;font-variant-numeric:tabular-nums}
.eval-table td.null{color:#aaa}
.warn{color:#a40}
section{margin-bottom:32px}
</style></head>
<body><h1>${escapeHtml(title)}</h1>
<p>Generated ${new Date().toISOString()} from:</p><ul>${runs}</ul>${warnings}
${body}
</body></html>
`;
}

/**
 * Loads a run folder and writes `<runDir>/report.html`: the same tables and
 * charts as the notebooks, as one standalone page. No Python needed.
 *
 * @param runDir The run folder.
 * @returns The path of the written report.
 * @throws {Deno.errors.NotFound} When the run folder or its results are missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeReport } from "./mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/manifest.json`, "{}");
 * const row = (digits: number, correct: boolean) =>
 *   JSON.stringify({ model: "m", status: correct ? "correct" : "wrong", correct, dims: { digits } });
 * await Deno.writeTextFile(`${dir}/results.jsonl`, [row(2, true), row(4, false)].join("\n") + "\n");
 * const path = await writeReport(dir);
 * assert.match(await Deno.readTextFile(path), /Accuracy by digits/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeReport(
  runDir: string,
  suites: readonly SuiteView[] = [],
): Promise<string> {
  const loaded = await loadRuns(runDir);
  const name = runDir.replace(/\/+$/, "").split("/").at(-1) ?? runDir;
  const path = join(runDir, "report.html");
  await Deno.writeTextFile(
    path,
    renderReport(loaded, `Evaluation report: ${name}`, suites),
  );
  return path;
}
