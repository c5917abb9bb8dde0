/**
 * Linear-algebra reports over the result frame of {@linkcode loadRuns}:
 * the accuracy cliff against matrix size per task, the five tiers, error
 * labels by size (execution errors against abandonment) and format
 * sensitivity on the same problems.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import { requireColumns } from "../../report/columns.ts";
import { ABANDONMENT_LABELS, EXECUTION_LABELS } from "./forensics.ts";
import { ACCURACY_Y, type Chart, pct, renderPlot } from "../../report/plot.ts";
import { summarize } from "../../report/summarize.ts";

type Row = Record<string, unknown>;

function linalgOnly(frame: DataFrame): DataFrame {
  requireColumns(frame, ["task", "size", "correct"], {
    action: "build linalg report",
    suite: "linalg",
  });
  return frame.columns.includes("suite")
    ? frame.filter(pl.col("suite").eq(pl.lit("linalg")))
    : frame;
}

/**
 * The family of an error label: `execution` (sign, arithmetic, carry-down,
 * transcription), `abandonment` (hallucination, constraint fabrication,
 * incomplete computation), `presentation` (formatting, truncation) or
 * `other`.
 *
 * @param label An error class.
 * @returns Its family.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorFamily } from "./report.ts";
 * assert.equal(errorFamily("sign_error"), "execution");
 * assert.equal(errorFamily("hallucination"), "abandonment");
 * assert.equal(errorFamily("generation_truncation"), "presentation");
 * ```
 */
export function errorFamily(label: string): string {
  if ((EXECUTION_LABELS as readonly string[]).includes(label)) {
    return "execution";
  }
  if ((ABANDONMENT_LABELS as readonly string[]).includes(label)) {
    return "abandonment";
  }
  if (label === "formatting_mismatch" || label === "generation_truncation") {
    return "presentation";
  }
  return "other";
}

/**
 * Accuracy against matrix size, one panel per task, one line per model:
 * the LinAlg-Bench cliff.
 *
 * @param frame A result frame with `task`, `size`, `model`, `correct`.
 * @param options Title and width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { linalgCliff } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a", "a", "a", "a"], task: ["determinant", "determinant", "trace", "trace"], size: [3, 5, 3, 5], correct: [true, false, true, true] });
 * assert.match(linalgCliff(frame).html, /<svg/);
 * ```
 */
export function linalgCliff(
  frame: DataFrame,
  options: { title?: string; width?: number } = {},
): Chart {
  const { width = 900 } = options;
  const summary = summarize(linalgOnly(frame), ["task", "size", "model"])
    .toRecords();
  // A 3-column grid of panels, one per task, in the order tasks appear.
  const tasks = [...new Set(summary.map((d) => String(d["task"])))];
  const place = (task: string) => {
    const i = tasks.indexOf(task);
    return { col: i % 3, row: Math.floor(i / 3) };
  };
  const data = summary.map((d) => ({ ...d, ...place(String(d["task"])) }));
  const labels = tasks.map((task) => ({ task, ...place(task) }));
  const x = (d: Row) => Number(d["size"]);
  const sizes = [...new Set(data.map(x))].sort((a, b) => a - b);
  return renderPlot(
    options.title ?? "Accuracy against matrix size, per task",
    {
      width,
      height: 230 * Math.ceil(tasks.length / 3) + 40,
      marginTop: 24,
      fx: { axis: null, padding: 0.12 },
      fy: { axis: null, padding: 0.18 },
      x: { label: "n", ticks: sizes, tickFormat: "d" },
      y: ACCURACY_Y,
      color: { legend: true, type: "ordinal", scheme: "tableau10" },
      marks: [
        Plot.frame({ stroke: "#ddd" }),
        Plot.text(labels, {
          fx: "col",
          fy: "row",
          text: "task",
          frameAnchor: "top",
          dy: -14,
          fontWeight: "bold",
        }),
        Plot.lineY(data, {
          fx: "col",
          fy: "row",
          x,
          y: "accuracy",
          stroke: "model",
        }),
        Plot.dot(data, {
          fx: "col",
          fy: "row",
          x,
          y: "accuracy",
          fill: "model",
          r: 3,
        }),
      ],
    },
  );
}

/**
 * Accuracy per model and tier (reading, arithmetic, sequential,
 * recursive, compositional) and size, as a frame.
 *
 * @param frame A result frame with `tier`.
 * @returns Columns model, tier, size, n, accuracy, acc_lo, acc_hi.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { linalgTiers } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a", "a"], task: ["trace", "determinant"], tier: ["reading", "recursive"], size: [3, 3], correct: [true, false] });
 * assert.deepEqual(linalgTiers(frame).getColumn("tier").toArray(), ["reading", "recursive"]);
 * ```
 */
export function linalgTiers(frame: DataFrame): DataFrame {
  return summarize(linalgOnly(frame), ["model", "tier", "size"])
    .select("model", "tier", "size", "n", "accuracy", "acc_lo", "acc_hi");
}

/**
 * Wrong answers by size and error family (execution, abandonment,
 * presentation, other), with each family's share of that size's errors.
 *
 * @param frame A result frame with `error_class`.
 * @returns Columns size, family, errors, share.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { linalgErrorsBySize } from "./report.ts";
 * const frame = pl.DataFrame({ task: ["determinant", "determinant", "determinant"], size: [3, 5, 5], correct: [false, false, false], error_class: ["sign_error", "hallucination", "hallucination"] });
 * const rows = linalgErrorsBySize(frame).toRecords();
 * assert.deepEqual(rows.map((r) => [r.size, r.family, r.share]), [[3, "execution", 1], [5, "abandonment", 1]]);
 * ```
 */
export function linalgErrorsBySize(frame: DataFrame): DataFrame {
  const f = linalgOnly(frame).filter(
    pl.col("correct").not().and(pl.col("error_class").isNotNull()),
  );
  const counts = new Map<string, number>();
  const totals = new Map<number, number>();
  for (const r of f.select("size", "error_class").toRecords()) {
    const size = Number(r["size"]);
    const key = `${size}|${errorFamily(String(r["error_class"]))}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    totals.set(size, (totals.get(size) ?? 0) + 1);
  }
  const rows = [...counts].map(([key, errors]) => {
    const [size, family] = key.split("|") as [string, string];
    return {
      size: Number(size),
      family,
      errors,
      share: errors / totals.get(Number(size))!,
    };
  }).sort((a, b) => a.size - b.size || a.family.localeCompare(b.family));
  return pl.DataFrame(
    rows.length ? rows : { size: [], family: [], errors: [], share: [] },
  );
}

/**
 * Stacked bars of error families by size: execution errors give way to
 * abandonment as matrices grow.
 *
 * @param frame A result frame with `error_class`.
 * @param options Title and width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { linalgErrorChart } from "./report.ts";
 * const frame = pl.DataFrame({ task: ["determinant"], size: [3], correct: [false], error_class: ["sign_error"] });
 * assert.match(linalgErrorChart(frame).html, /<rect/);
 * ```
 */
export function linalgErrorChart(
  frame: DataFrame,
  options: { title?: string; width?: number } = {},
): Chart {
  const data = linalgErrorsBySize(frame).toRecords();
  return renderPlot(
    options.title ?? "Error families by matrix size (share of wrong answers)",
    {
      width: options.width ?? 720,
      x: { label: "n", type: "band" },
      y: { label: "share of errors", tickFormat: pct, domain: [0, 1] },
      color: {
        legend: true,
        domain: ["execution", "abandonment", "presentation", "other"],
        scheme: "tableau10",
      },
      marks: [
        Plot.barY(data, {
          x: (d: Row) => String(d["size"]),
          y: "share",
          fill: "family",
        }),
        Plot.ruleY([0]),
      ],
    },
  );
}

/**
 * Format sensitivity: accuracy per model and input format on the same
 * problems, and the widest gap between two formats.
 *
 * @param frame A result frame with `format`.
 * @returns Columns model, one per format, and `gap` (max − min accuracy).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { formatSensitivity } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a", "a"], task: ["trace", "trace"], size: [3, 3], format: ["latex", "table"], correct: [true, false] });
 * const [row] = formatSensitivity(frame).toRecords();
 * assert.equal(row!.gap, 1);
 * ```
 */
export function formatSensitivity(frame: DataFrame): DataFrame {
  const data = summarize(linalgOnly(frame), ["model", "format"]).toRecords();
  const formats = [...new Set(data.map((d) => String(d["format"])))].sort();
  const models = [...new Set(data.map((d) => String(d["model"])))];
  const rows = models.map((model) => {
    const row: Record<string, string | number> = { model };
    const accs: number[] = [];
    for (const format of formats) {
      const hit = data.find((d) =>
        d["model"] === model && d["format"] === format
      );
      const acc = hit ? Number(hit["accuracy"]) : NaN;
      row[format] = acc;
      if (!Number.isNaN(acc)) accs.push(acc);
    }
    row["gap"] = accs.length ? Math.max(...accs) - Math.min(...accs) : 0;
    return row;
  });
  return pl.DataFrame(rows);
}
