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
import { writeFileAtomic } from "../store/mod.ts";
import { type LoadedRuns, loadRuns } from "./load.ts";
import { adaptiveLeaderboardNote, adaptiveSection } from "./adaptive.ts";
import { headline } from "./headline.ts";
import { headlineHtml } from "./headline_html.ts";
import { leaderboardHtml, leaderboards } from "./leaderboard.ts";
import { extractionNote } from "./extraction_note.ts";
import { escapeHtml } from "./plot.ts";
import { accuracyByCategory } from "./standard_charts.ts";
import { RESULT_COLUMNS } from "../types.ts";
import { viewerSections } from "./viewer/mod.ts";
import {
  overviewWithCompleteness,
  type RunCompleteness,
  runsCompleteness,
} from "./_completeness_frame.ts";
import { notesHtml, runsHtml } from "./_runs_html.ts";
import { pageHtml } from "./_page.ts";
import { distinct } from "./_distinct.ts";
import { dimColumn, suiteSection } from "./_suite_section.ts";
import {
  guardedSection,
  type ReportSection,
  type SuiteView,
} from "./suite_view.ts";
export type { ReportSection };

/** The generic columns the overview shows after each suite's metrics. */
const OVERVIEW_REST = [
  "error_rate",
  "tokens_in",
  "tokens_out",
  "parse_error_rate",
  "ambiguous_rate",
  "tokens_out_mean",
  "cost",
];

/** The result-row columns (a frame's other columns are dims and metrics). */
const RESULT_COLUMN_SET: ReadonlySet<string> = new Set([
  ...RESULT_COLUMNS,
  "cost",
]);

/** The suite name given to rows that carry none. */
const NO_SUITE = "(no suite)";

/** The rows with a `suite` value on every row. */
function withSuite(frame: DataFrame): DataFrame {
  return frame.columns.includes("suite")
    ? frame.withColumns(pl.col("suite").fillNull(NO_SUITE))
    : frame.withColumns(pl.lit(NO_SUITE).alias("suite"));
}

/**
 * The section of `--by`: the headline per suite, model and the dims, and
 * per suite and dim the accuracy of each model at each value.
 */
async function byDimsSection(
  frame: DataFrame,
  by: readonly string[],
  suites: readonly SuiteView[],
): Promise<ReportSection> {
  const dims = by.filter((c) => !["run", "suite", "model"].includes(c));
  const absent = dims.filter((d) => !frame.columns.includes(d));
  const title = `By ${dims.join(", ")}`;
  if (absent.length > 0) {
    return {
      title,
      parts: [
        `<p class="note">Not shown: the rows have no ${
          absent.join(", ")
        }; their dims are ${
          frame.columns.filter((c) => !RESULT_COLUMN_SET.has(c)).join(", ") ||
          "none"
        }.</p>`,
      ],
    };
  }
  const head = await headline(frame, by, { suites });
  const parts = headlineHtml(head, { rest: ["error_rate"] });
  for (const suite of distinct(frame, "suite").map(String)) {
    const rows = frame.filter(pl.col("suite").eq(pl.lit(suite)));
    for (const dim of dims) {
      const chart = guardedSection(suite, () => [
        accuracyByCategory(rows, dim, {
          title: `${suite}: accuracy by ${dim} (Wilson 95% interval)`,
        }),
      ]);
      if (chart !== null) parts.push(...chart.parts);
    }
  }
  return { title, parts };
}

/** The overview's note on ambiguous replies and the extraction judge, if any. */
function extractionNotes(frame: DataFrame): string[] {
  const note = extractionNote(frame);
  return note === null
    ? []
    : [`<p class="note"><b>Extraction</b>: ${escapeHtml(note)}</p>`];
}

/** Whether the rows come from more than one run. */
function multiRun(frame: DataFrame): boolean {
  return distinct(frame, "run").length > 1;
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
 * @param options The suites the report knows (their dims, baseline,
 *   sections), dims to break down by.
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
 * const sections = await reportSections({ frame, dims: ["family"], runs: [], warnings: [] }, { suites: [suite] });
 * assert.deepEqual(sections.map((s) => s.title), ["Leaderboard", "Overview", "Suite: s", "Sample explorer"]);
 * assert.ok(sections[2]!.parts.includes("<h3>Accuracy by operation</h3>"));
 * assert.match(sections[1]!.parts.join(""), /<th>planned<\/th><th>stored<\/th><th>error_rows<\/th>/);
 * ```
 */
export async function reportSections(
  loaded: LoadedRuns,
  options: ReportOptions = {},
): Promise<ReportSection[]> {
  if (loaded.frame.height === 0) return await sectionsOf(loaded, options);
  const frame = withSuite(loaded.frame);
  return await sectionsOf(
    loaded,
    options,
    frame,
    runsCompleteness(loaded, frame),
  );
}

/** What a report shows besides its rows. */
export interface ReportOptions {
  /** The suites the report knows (their dims, baseline, sections). @default none */
  suites?: readonly SuiteView[];
  /**
   * Dims (or row fields) to break the results down by as well (`--by
   * category`): a section with the headline per suite, model and these,
   * and the accuracy per value of each. @default none
   */
  by?: readonly string[];
}

/** {@linkcode reportSections} once the rows' suites and completeness are known. */
async function sectionsOf(
  loaded: LoadedRuns,
  options: ReportOptions,
  frame: DataFrame = withSuite(loaded.frame),
  completeness: readonly RunCompleteness[] = [],
): Promise<ReportSection[]> {
  const { suites = [], by: extra = [] } = options;
  if (loaded.frame.height === 0) {
    return [{
      title: "No results",
      parts: ["<p>The run has no result rows yet.</p>"],
    }];
  }
  const runs = multiRun(frame);
  const by = [...(runs ? ["run"] : []), "suite", "model"];
  const head = await headline(frame, by, { suites });
  const overview = overviewWithCompleteness(
    head.frame,
    frame,
    by,
    completeness,
  );
  const adaptiveNote = adaptiveLeaderboardNote(loaded);
  const sections: ReportSection[] = [{
    title: "Leaderboard",
    parts: [
      "<p>Per suite, the models ranked by the suite's headline metric, with its 95% interval; the line under each says which gaps to the leader are significant.</p>",
      ...(adaptiveNote === null ? [] : [adaptiveNote]),
      ...leaderboardHtml(await leaderboards(head, frame)),
    ],
  }, {
    title: "Overview",
    parts: [
      "<p>Rows planned (from the run's manifest), stored and error rows (requests that failed for good, counted as not correct); n counts the scored rows (those with an answer key). Then each suite's headline metrics, as the suite declares them, over its scored rows; error rate is the share of calls that failed; tokens are totals.</p>",
      ...notesHtml(completeness),
      ...extractionNotes(frame),
      `<details><summary>Every metric per suite and model (wide tables)</summary>${
        headlineHtml(head, { frame: overview, rest: OVERVIEW_REST }).join("\n")
      }</details>`,
    ],
  }];
  const adaptive = adaptiveSection(loaded);
  if (adaptive !== null) sections.push(adaptive);
  if (extra.length > 0) {
    sections.push(await byDimsSection(frame, [...by, ...extra], suites));
  }
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
  sections.push(
    ...await viewerSections(frame, suites, {
      dimColumn: (name) => dimColumn(loaded, name),
      dimColumns: loaded.dims,
    }),
  );
  return sections;
}

/**
 * Renders loaded runs as one standalone HTML page: a table of contents,
 * the sections of {@linkcode reportSections} (inline SVG charts) and the
 * sample explorer's small inline script; no external resources.
 *
 * @param loaded What {@linkcode loadRuns} returned.
 * @param options The title, the suites the report knows, dims to break down by.
 * @returns The HTML document.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { renderReport } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a"], status: ["correct"], correct: [true] });
 * const html = await renderReport({ frame, dims: [], runs: [], warnings: [] }, { title: "T" });
 * assert.match(html, /^<!DOCTYPE html>/);
 * assert.match(html, /<svg/);
 * ```
 */
export async function renderReport(
  loaded: LoadedRuns,
  options: RenderReportOptions = {},
): Promise<string> {
  const { title = "Evaluation report" } = options;
  const frame = withSuite(loaded.frame);
  const completeness = loaded.frame.height === 0
    ? []
    : runsCompleteness(loaded, frame);
  const sections = await sectionsOf(loaded, options, frame, completeness);
  return pageHtml(title, runsHtml(loaded, completeness), sections);
}

/** Options for {@linkcode renderReport}. */
export interface RenderReportOptions extends ReportOptions {
  /** The page's title. @default "Evaluation report" */
  title?: string;
}

/** Options for {@linkcode writeReport}. */
export interface WriteReportOptions extends ReportOptions {
  /** Where to write the page. @default `<first run>/report.html` */
  out?: string;
}

/**
 * Loads one run folder, or several side by side, and writes the report:
 * the same tables and charts as the notebooks, as one standalone page. No
 * Python needed. With several runs the tables group by run as well.
 *
 * @param runDirs The run folder, or several.
 * @param options Where to write, the suites the report knows, dims to break down by.
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
  options: WriteReportOptions = {},
): Promise<string> {
  const dirs = typeof runDirs === "string" ? [runDirs] : [...runDirs];
  if (dirs.length === 0) {
    throw new TypeError(
      "Cannot write a report: no run folder given; pass at least one",
    );
  }
  const loaded = await loadRuns(dirs);
  // The runs loaded: a run given twice is one (see `distinctRuns`).
  const names = loaded.runs.map(({ dir: d }) =>
    d.replace(/\/+$/, "").split("/").at(-1) ?? d
  );
  const path = options.out ?? join(dirs[0]!, "report.html");
  await writeFileAtomic(
    path,
    await renderReport(loaded, {
      ...options,
      title: `Evaluation report: ${names.join(" vs ")}`,
    }),
  );
  return path;
}
