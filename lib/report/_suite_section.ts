/**
 * One suite's section of the report, over its own rows: accuracy by each
 * declared dim (or, for a suite the report does not know, by the dims its
 * rows show), its templates against its baseline, its models compared,
 * outcome types, cost frontier, questions every model got wrong, and the
 * suite's own sections.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
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
import type { LoadedRuns } from "./load.ts";
import { summarize } from "./summarize.ts";
import { tableHtml } from "./table.ts";
import { dimKinds } from "./dim_kinds.ts";
import { distinct } from "./_distinct.ts";
import type { DimSpec } from "../types.ts";
import {
  guardedSection,
  notShownHtml,
  type ReportSection,
  type SuiteView,
} from "./suite_view.ts";

/** The columns of a breakdown table worth reading at a glance. */
export function brief(
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
    "ambiguous_rate",
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

/** The frame column of a declared dim (`dim_<name>` when it clashed). */
export function dimColumn(loaded: LoadedRuns, name: string): string | null {
  const cols = loaded.frame.columns;
  if (loaded.dims.includes(name) && cols.includes(name)) return name;
  if (cols.includes(`dim_${name}`)) return `dim_${name}`;
  return null;
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
        const r = compareModels(frame, [models[i]!, models[j]!], { resamples });
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
export async function suiteSection(
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
          const table = compareTemplates(series, [baseline, t]);
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
      own = [{ title: `${name}'s own sections`, parts: [notShownHtml(error)] }];
    }
    for (const s of own) parts.push(h3(s.title), ...s.parts);
  }
  return { title: `Suite: ${name}`, parts };
}
