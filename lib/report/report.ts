/**
 * The standalone HTML report: an overview by suite and model, one section
 * per suite (its declared dims, its templates against its baseline, its
 * models, its own sections), and a sample explorer.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import { join } from "node:path";
import { GENERATOR_META, writeFileAtomic } from "../store/mod.ts";
import { escapeHtml } from "./plot.ts";
import {
  accuracyByCategory,
  accuracyByDimension,
  accuracyHeatmap,
  costFrontier,
  errorTypes,
} from "./standard_charts.ts";
import { compareModels, compareTemplates } from "./compare.ts";
import { allWrong } from "./all_wrong.ts";
import { type LoadedRuns, loadRuns } from "./load.ts";
import { summarize } from "./summarize.ts";
import { tableHtml } from "./table.ts";
import { explorerHtml } from "./_explorer.ts";
import {
  notesHtml,
  overviewWithCompleteness,
  type RunCompleteness,
  runsCompleteness,
  warningHtml,
} from "./_completeness.ts";
import type { DimSpec } from "../types.ts";
import {
  guardedSection,
  type ReportSection,
  type SuiteView,
} from "./suite_view.ts";
export type { ReportSection };

/** The suite name given to rows that carry none. */
const NO_SUITE = "(no suite)";

/** The columns of a breakdown table worth reading at a glance. */
function brief(
  summary: DataFrame,
  extra: readonly string[] = [],
): DataFrame {
  const keep = [
    "n",
    "accuracy",
    "acc_lo",
    "acc_hi",
    ...extra,
    "parse_error_rate",
    "tokens_out_mean",
    "cost",
  ];
  const groups = summary.columns.slice(0, summary.columns.indexOf("n"));
  const out = summary.select(...groups, ...keep);
  // A run without prices has no cost: a column of blanks says nothing.
  return out.getColumn("cost").nullCount() === out.height
    ? out.drop("cost")
    : out;
}

/**
 * Sorts dims columns into the ones worth plotting: numeric ones (digits,
 * size) for lines against a dimension, and categorical ones (family,
 * subject) with 2 to 30 values for category charts. Columns with a single
 * value say nothing and are left out, as are id-like ones with many values.
 * Used for rows of a suite the report was not told about.
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
  frame: DataFrame,
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
function distinct(frame: DataFrame, col: string): unknown[] {
  if (!frame.columns.includes(col)) return [];
  return frame.select(pl.col(col)).unique().dropNulls().getColumn(col)
    .toArray();
}

/** The frame column of a declared dim (`dim_<name>` when it clashed). */
function dimColumn(loaded: LoadedRuns, name: string): string | null {
  const cols = loaded.frame.columns;
  if (loaded.dims.includes(name) && cols.includes(name)) return name;
  if (cols.includes(`dim_${name}`)) return `dim_${name}`;
  return null;
}

/** The rows with a `suite` value on every row. */
function withSuite(frame: DataFrame): DataFrame {
  return frame.columns.includes("suite")
    ? frame.withColumns(pl.col("suite").fillNull(NO_SUITE))
    : frame.withColumns(pl.lit(NO_SUITE).alias("suite"));
}

/** Whether the rows come from more than one run. */
function multiRun(frame: DataFrame): boolean {
  return distinct(frame, "run").length > 1;
}

/** Series labels: the model, or `run · model` when runs are side by side. */
function seriesFrame(frame: DataFrame, runs: boolean): DataFrame {
  return runs && frame.columns.includes("model")
    ? frame.withColumns(
      pl.concatString([pl.col("run"), pl.col("model")], " · ").alias("model"),
    )
    : frame;
}

/** A declared dim resolved to a column, or a dim found in unknown rows. */
interface ShownDim {
  column: string;
  label: string;
  kind: "numeric" | "categorical";
}

/** The dims a suite's section shows: declared, shown, with 2+ values here. */
function shownDims(
  loaded: LoadedRuns,
  frame: DataFrame,
  suite: SuiteView | undefined,
): ShownDim[] {
  if (suite === undefined) {
    const { numeric, categorical } = dimKinds(frame, loaded.dims);
    return [
      ...numeric.map((c) => ({
        column: c,
        label: c,
        kind: "numeric" as const,
      })),
      ...categorical.map((c) => ({
        column: c,
        label: c,
        kind: "categorical" as const,
      })),
    ];
  }
  const out: ShownDim[] = [];
  for (const d of suite.dims as readonly DimSpec[]) {
    if (d.show === false) continue;
    const column = dimColumn(loaded, d.name);
    if (column === null) continue;
    const k = distinct(frame, column).length;
    if (k < 2) continue;
    const numeric = d.kind === "numeric" && frame.getColumn(column).isNumeric();
    out.push({
      column,
      label: d.label,
      kind: numeric ? "numeric" : "categorical",
    });
  }
  return out;
}

/** The paired model comparison table, or null with fewer than two models. */
function modelsCompared(frame: DataFrame): string | null {
  const models = distinct(frame, "model").map(String).sort();
  if (models.length < 2) return null;
  // 2,000 resamples of 20,000 pairs take seconds per pair of models; at
  // that size the interval is narrow and 500 resamples place it well.
  const resamples = frame.height / models.length > 10_000 ? 500 : 2000;
  const rows = [];
  for (let i = 0; i < models.length; i++) {
    for (let j = i + 1; j < models.length; j++) {
      try {
        const r = compareModels(frame, models[i]!, models[j]!, { resamples });
        if (r.pairs === 0) continue;
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
  return rows.length
    ? `<p class="note">Rows paired by question, template and sample; diff_lo and diff_hi bound accuracy(a) − accuracy(b) (${resamples} seeded resamples).</p>` +
      tableHtml(pl.DataFrame(rows), {
        percent: (c) => /^(acc_|diff_)/.test(c),
      })
    : null;
}

/** A sub-heading inside a suite's section. */
const h3 = (title: string) => `<h3>${escapeHtml(title)}</h3>`;

/** One suite's section over its own rows. */
async function suiteSection(
  loaded: LoadedRuns,
  name: string,
  frame: DataFrame,
  suite: SuiteView | undefined,
  runs: boolean,
): Promise<ReportSection> {
  const parts: string[] = [];
  const by = runs ? ["run"] : [];
  const series = seriesFrame(frame, runs);
  const severalModels = distinct(series, "model").length > 1;
  parts.push(
    suite
      ? `<p>${escapeHtml(suite.description)}</p>`
      : `<p class="note">No suite named ${
        escapeHtml(name)
      } is registered: generic tables only.</p>`,
  );
  for (const d of shownDims(loaded, frame, suite)) {
    const sub = frame.filter(pl.col(d.column).isNotNull());
    const subSeries = series.filter(pl.col(d.column).isNotNull());
    const title = `Accuracy by ${d.label}`;
    const charts = d.kind === "numeric"
      ? [
        accuracyByDimension(subSeries, d.column, {
          title: `${name}: ${title}`,
        }),
      ]
      : [
        accuracyByCategory(subSeries, d.column, { title: `${name}: ${title}` }),
        ...(severalModels
          ? [accuracyHeatmap(subSeries, d.column, {
            title: `${name}: accuracy by model and ${d.label}`,
          })]
          : []),
      ];
    parts.push(
      h3(title),
      ...charts.map((c) => c.html),
      tableHtml(brief(summarize(sub, [...by, d.column, "model"]))),
    );
  }
  const templates = distinct(frame, "template").map(String).sort();
  const baseline = suite?.baseline ??
    (templates.includes("direct") ? "direct" : templates[0]);
  if (
    baseline !== undefined && !templates.includes(baseline) &&
    templates.length > 1
  ) {
    parts.push(
      `<p class="note">Templates not compared: the baseline ${
        escapeHtml(baseline)
      } is not among this suite's templates here (${
        escapeHtml(templates.join(", "))
      }).</p>`,
    );
  }
  if (baseline !== undefined && templates.includes(baseline)) {
    const rest = templates.filter((t) => t !== baseline);
    for (const t of rest) {
      const s = guardedSection(
        `Template ${t} against the baseline ${baseline}`,
        () => {
          const table = compareTemplates(series, baseline, t);
          return table.height === 0 ? [] : [tableHtml(table)];
        },
      );
      if (s) parts.push(h3(s.title), ...s.parts);
    }
  }
  const models = modelsCompared(series);
  if (models !== null) {
    parts.push(
      h3(
        "Models compared (paired: exact McNemar, bootstrap 95% CI of accuracy difference)",
      ),
      models,
    );
  }
  parts.push(h3("Outcome types"), errorTypes(series).html);
  parts.push(h3("Cost frontier"), costFrontier(series).html);
  if (templates.length > 1) {
    parts.push(
      costFrontier(series, {
        series: "template",
        title: `${name}: accuracy against tokens by template`,
      }).html,
    );
  }
  const wrong = allWrong(series);
  parts.push(h3(`Questions every model got wrong (${wrong.height})`));
  parts.push(
    wrong.height
      ? "<p>Check these answer keys first: where all models agree on one other answer, the key is the suspect.</p>" +
        tableHtml(wrong, { maxRows: 50 })
      : '<p class="note">None.</p>',
  );
  if (suite?.sections) {
    let own: ReportSection[];
    try {
      own = await suite.sections(frame);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      own = [{
        title: `${name}'s own sections`,
        parts: [
          `<p class="note">Not shown for these rows: ${
            escapeHtml(message)
          }</p>`,
        ],
      }];
    }
    for (const s of own) parts.push(h3(s.title), ...s.parts);
  }
  return { title: `Suite: ${name}`, parts };
}

/**
 * Builds the report's sections from loaded runs: an overview (suite ×
 * model, and run when several runs are loaded, with rows planned, stored
 * and error rows), one section per suite present in the rows — accuracy
 * by each declared dim, its templates against its baseline, its models
 * compared, outcome types, cost frontier, questions every model got wrong
 * and the suite's own sections — and a sample explorer. Rows of a suite
 * not in `suites` get the generic part.
 *
 * @param loaded What {@linkcode loadRuns} returned.
 * @param suites The suites the report knows (their dims, baseline, sections).
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
 * const suite = {
 *   name: "s", description: "S.", baseline: "t",
 *   dims: [{ name: "family", kind: "categorical" as const, label: "operation" }],
 * };
 * const sections = await reportSections({ frame, dims: ["family"], runs: [], warnings: [] }, [suite]);
 * assert.deepEqual(sections.map((s) => s.title), ["Overview", "Suite: s", "Sample explorer"]);
 * assert.ok(sections[1]!.parts.includes("<h3>Accuracy by operation</h3>"));
 * assert.match(sections[0]!.parts.join(""), /<th>planned<\/th><th>stored<\/th><th>error_rows<\/th>/);
 * ```
 */
export async function reportSections(
  loaded: LoadedRuns,
  suites: readonly SuiteView[] = [],
): Promise<ReportSection[]> {
  if (loaded.frame.height === 0) return await sectionsOf(loaded, suites);
  const frame = withSuite(loaded.frame);
  return await sectionsOf(
    loaded,
    suites,
    frame,
    runsCompleteness(loaded, frame),
  );
}

/** {@linkcode reportSections} once the rows' suites and completeness are known. */
async function sectionsOf(
  loaded: LoadedRuns,
  suites: readonly SuiteView[],
  frame: DataFrame = withSuite(loaded.frame),
  completeness: readonly RunCompleteness[] = [],
): Promise<ReportSection[]> {
  if (loaded.frame.height === 0) {
    return [{
      title: "No results",
      parts: ["<p>The run has no result rows yet.</p>"],
    }];
  }
  const runs = multiRun(frame);
  const by = [...(runs ? ["run"] : []), "suite", "model"];
  const overview = overviewWithCompleteness(
    brief(summarize(frame, by), ["error_rate", "tokens_in", "tokens_out"]),
    frame,
    by,
    completeness,
  );
  const sections: ReportSection[] = [{
    title: "Overview",
    parts: [
      "<p>Rows planned (from the run's manifest), stored and error rows (requests that failed for good, counted as not correct); n counts the scored rows. Accuracy with its Wilson 95% interval; error rate is the share of calls that failed; tokens are totals.</p>",
      ...notesHtml(completeness),
      tableHtml(overview),
    ],
  }];
  const present = distinct(frame, "suite").map(String);
  // Registered suites in registry order, then the unknown ones by name.
  const order = [
    ...suites.map((s) => s.name).filter((n) => present.includes(n)),
    ...present.filter((n) => !suites.some((s) => s.name === n)).sort(),
  ];
  for (const name of order) {
    const sub = frame.filter(pl.col("suite").eq(pl.lit(name)));
    sections.push(
      await suiteSection(
        loaded,
        name,
        sub,
        suites.find((s) => s.name === name),
        runs,
      ),
    );
  }
  const dims = suites.flatMap((s) =>
    s.dims.filter((d) => d.show !== false).map((d) => dimColumn(loaded, d.name))
  ).filter((c): c is string => c !== null);
  sections.push({
    title: "Sample explorer",
    parts: [explorerHtml(frame, { dims: [...new Set(dims)] })],
  });
  return sections;
}

/** A fragment id for the n-th section. */
const anchor = (i: number) => `s${i + 1}`;

/**
 * Renders loaded runs as one standalone HTML page: a table of contents,
 * the sections of {@linkcode reportSections} (inline SVG charts) and the
 * sample explorer's small inline script; no external resources.
 *
 * @param loaded What {@linkcode loadRuns} returned.
 * @param title Page title.
 * @param suites The suites the report knows.
 * @returns The HTML document.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { renderReport } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a"], status: ["correct"], correct: [true] });
 * const html = await renderReport({ frame, dims: [], runs: [], warnings: [] }, "T");
 * assert.match(html, /^<!DOCTYPE html>/);
 * assert.match(html, /<svg/);
 * ```
 */
export async function renderReport(
  loaded: LoadedRuns,
  title: string,
  suites: readonly SuiteView[] = [],
): Promise<string> {
  const frame = withSuite(loaded.frame);
  const completeness = loaded.frame.height === 0
    ? []
    : runsCompleteness(loaded, frame);
  const sections = await sectionsOf(loaded, suites, frame, completeness);
  const runs = loaded.runs.map((r, i) => {
    const m = r.manifest ?? {};
    const when = [
      m.startedAt ?? m.started_at ?? m.start,
      m.endedAt ?? m.finishedAt ?? m.end,
    ]
      .filter((x) => typeof x === "string").join(" → ");
    const own = completeness[i];
    const planned = own?.dir === r.dir ? own.completeness.planned : null;
    return `<li><code>${escapeHtml(r.dir)}</code>: ${r.rows}${
      typeof planned === "number" ? ` of ${planned} planned` : ""
    } rows${when ? `, ${escapeHtml(when)}` : ""}${
      r.torn ? " (torn last line dropped)" : ""
    }</li>`;
  }).join("");
  const warnings = loaded.warnings.length
    ? `<ul class="warn">${
      loaded.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join("")
    }</ul>`
    : "";
  const toc = `<nav><h2>Contents</h2><ol>${
    sections.map((s, i) =>
      `<li><a href="#${anchor(i)}">${escapeHtml(s.title)}</a></li>`
    ).join("")
  }</ol></nav>`;
  const body = sections.map((s, i) =>
    `<section id="${anchor(i)}"><h2>${escapeHtml(s.title)}</h2>\n${
      s.parts.join("\n")
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
#explorer-rows{overflow-x:auto}
.explorer-table td{max-width:220px;overflow-wrap:anywhere}
.explorer-table td.text{max-width:360px}
.explorer-table td.dims{max-width:160px;font-size:11px;color:#555}
.explorer-table pre{white-space:pre-wrap;max-height:240px;overflow:auto;margin:0;font-size:11px;max-width:420px}
.explorer-controls label{margin-right:8px;white-space:nowrap}
.warn{color:#a40}
.run-warning{border:2px solid #c60;background:#fff4e5;padding:4px 16px;margin:12px 0}
.run-warning strong{color:#a40}
.note{color:#555}
section{margin-bottom:32px}
</style></head>
<body><h1>${escapeHtml(title)}</h1>
${warningHtml(completeness)}
<p>Generated ${new Date().toISOString()} from:</p><ul>${runs}</ul>${warnings}
${toc}
${body}
</body></html>
`;
}

/** Options for {@linkcode writeReport}. */
export interface WriteReportOptions {
  /** Where to write the page. @default `<first run>/report.html` */
  out?: string;
}

/**
 * Loads one run folder, or several side by side, and writes the report:
 * the same tables and charts as the notebooks, as one standalone page. No
 * Python needed. With several runs the tables group by run as well.
 *
 * @param runDirs The run folder, or several.
 * @param suites The suites the report knows.
 * @param options Where to write.
 * @returns The path of the written report.
 * @throws {Deno.errors.NotFound} When a run folder or its results are missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeReport } from "./mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/manifest.json`, "{}");
 * const row = (digits: number, correct: boolean) =>
 *   JSON.stringify({ key: `m|${digits}`, model: "m", status: correct ? "correct" : "wrong", correct, dims: { digits } });
 * await Deno.writeTextFile(`${dir}/results.jsonl`, [row(2, true), row(4, false)].join("\n") + "\n");
 * const path = await writeReport(dir);
 * assert.match(await Deno.readTextFile(path), /Accuracy by digits/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeReport(
  runDirs: string | readonly string[],
  suites: readonly SuiteView[] = [],
  options: WriteReportOptions = {},
): Promise<string> {
  const dirs = typeof runDirs === "string" ? [runDirs] : [...runDirs];
  if (dirs.length === 0) {
    throw new TypeError(
      "Cannot write a report: no run folder given; pass at least one",
    );
  }
  const loaded = await loadRuns(dirs);
  const names = dirs.map((d) => d.replace(/\/+$/, "").split("/").at(-1) ?? d);
  const path = options.out ?? join(dirs[0]!, "report.html");
  await writeFileAtomic(
    path,
    await renderReport(
      loaded,
      `Evaluation report: ${names.join(" vs ")}`,
      suites,
    ),
  );
  return path;
}
