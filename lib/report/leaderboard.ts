/**
 * The leaderboard a report opens with: per suite, the models ranked by the
 * suite's headline metric (the first it declares), each with its 95%
 * interval drawn, and one line saying which gaps to the leader are
 * significant by the exact McNemar test on the paired questions.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import type { Headline } from "./headline.ts";
import { compareModels } from "./compare.ts";
import { scoredRows } from "./scored.ts";
import { escapeHtml, pct, renderPlot } from "./plot.ts";

/** One model's place on a suite's leaderboard. */
export interface LeaderboardEntry {
  /** The model (with its run, `model · run`, when several runs are shown). */
  who: string;
  /** The headline metric's value, or null when the rows cannot give it. */
  value: number | null;
  /** Lower bound of its 95% interval, when the metric has one. */
  lo: number | null;
  /** Upper bound of its 95% interval. */
  hi: number | null;
  /** Scored rows. */
  n: number;
  /** Share of replies in the instructed format, when the suite reports it. */
  formatOk: number | null;
}

/** A gap between the leader and another model, tested on paired questions. */
export interface LeaderboardGap {
  /** The other model. */
  who: string;
  /** Accuracy of the leader minus the other's, over the paired questions. */
  diff: number;
  /** Exact McNemar two-sided p-value. */
  p: number;
  /** Whether the gap is significant at 5% after Holm's correction over the suite's gaps. */
  significant: boolean;
}

/** One suite's leaderboard. */
export interface SuiteLeaderboard {
  /** The suite. */
  suite: string;
  /** The headline metric: its column and label ("accuracy", "pass@1"). */
  metric: { name: string; label: string; description: string; share: boolean };
  /** The models, best first (ties keep the table's order; no value last). */
  entries: LeaderboardEntry[];
  /** The leader's gap to each other model, in rank order. */
  gaps: LeaderboardGap[];
}

/** The grouping column that names a model (with its run) on a leaderboard. */
const WHO = "__who";

/** The frame with the leaderboard's name of each row's model. */
function withWho(frame: DataFrame, runs: boolean): DataFrame {
  return frame.withColumns(
    (runs
      ? pl.concatString([pl.col("model"), pl.col("run")], " · ")
      : pl.col("model")).alias(WHO),
  );
}

/**
 * Holm's step-down correction: which of the p-values are significant at
 * `alpha` for the family as a whole.
 */
function holm(ps: readonly number[], alpha = 0.05): boolean[] {
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = ps.map(() => false);
  for (const [rank, [p, i]] of order.entries()) {
    if (p > alpha / (ps.length - rank)) break;
    out[i] = true;
  }
  return out;
}

/**
 * The leaderboards of a headline grouped by suite and model (and run):
 * per suite, its first declared metric that gives one value per group,
 * the models ranked by it, and the leader's gap to each other model
 * tested with the exact McNemar test over the questions (× template ×
 * sample) both answered, Holm-corrected over the suite's gaps.
 *
 * @param head A headline by `["suite", "model"]` (or with `run` first).
 * @param frame The rows it was computed from.
 * @returns One leaderboard per suite with a headline metric, in the
 *   headline's order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { headline } from "./headline.ts";
 * import { leaderboards } from "./leaderboard.ts";
 * const n = 30;
 * const frame = pl.DataFrame({
 *   suite: Array(2 * n).fill("s"),
 *   model: [...Array(n).fill("good"), ...Array(n).fill("bad")],
 *   question_id: [...Array(n).keys(), ...Array(n).keys()].map(String),
 *   template: Array(2 * n).fill("t"), sample: Array(2 * n).fill(0),
 *   status: Array(2 * n).fill("correct"),
 *   correct: [...Array(n).fill(true), ...Array(n).fill(false)],
 * });
 * const [board] = await leaderboards(await headline(frame, ["suite", "model"]), frame);
 * assert.deepEqual(board!.entries.map((e) => e.who), ["good", "bad"]);
 * assert.equal(board!.gaps[0]!.significant, true);
 * ```
 */
export async function leaderboards(
  head: Headline,
  frame: DataFrame,
): Promise<SuiteLeaderboard[]> {
  const runs = head.by.includes("run");
  if (!head.by.includes("model")) return [];
  const records = head.frame.toRecords();
  const scored = scoredRows(frame);
  const out: SuiteLeaderboard[] = [];
  for (const block of head.suites) {
    const metric = block.metrics.find((m) => m.partLabel === undefined);
    if (metric === undefined) continue;
    const rows = records.filter((r) =>
      block.suite === null || r.suite === block.suite
    );
    const num = (v: unknown) => typeof v === "number" ? v : null;
    const [loCol, hiCol] = metric.interval ?? [];
    const entries: LeaderboardEntry[] = rows.map((r) => ({
      who: runs ? `${r.model} · ${r.run}` : String(r.model),
      value: num(r[metric.name]),
      lo: loCol === undefined ? null : num(r[loCol]),
      hi: hiCol === undefined ? null : num(r[hiCol]),
      n: num(r.n) ?? 0,
      formatOk: num(r.format_valid_rate),
    }));
    entries.sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity));
    const gaps: LeaderboardGap[] = [];
    const leader = entries[0];
    if (leader !== undefined && leader.value !== null) {
      const own = withWho(
        block.suite === null
          ? scored
          : scored.filter(pl.col("suite").eq(pl.lit(block.suite))),
        runs,
      ).drop("model").rename({ [WHO]: "model" });
      for (const other of entries.slice(1)) {
        try {
          const c = compareModels(own, [leader.who, other.who], {
            resamples: 1, // only the McNemar p is used
          });
          gaps.push({
            who: other.who,
            diff: c.accuracyA - c.accuracyB,
            p: c.mcnemarP,
            significant: false,
          });
        } catch {
          // No question in common: no paired test to report.
        }
      }
      const marks = holm(gaps.map((g) => g.p));
      gaps.forEach((g, i) => g.significant = marks[i]!);
    }
    out.push({
      suite: block.suite ?? "all",
      metric: {
        name: metric.name,
        label: metric.label,
        description: metric.description,
        share: (metric.kind ?? "share") === "share",
      },
      entries,
      gaps,
    });
  }
  return await Promise.resolve(out);
}

/** A p-value in words for a reader: "p < 0.001", "p = 0.03". */
function pText(p: number): string {
  return p < 0.001 ? "p < 0.001" : `p = ${p.toPrecision(2)}`;
}

/** A difference in points: "+4.5 points". */
function points(diff: number): string {
  return `${diff >= 0 ? "+" : "−"}${Math.abs(diff * 100).toFixed(1)} points`;
}

/**
 * The one line under a leaderboard: who leads, which gaps are
 * significant, which are not.
 *
 * @param board A suite's leaderboard.
 * @returns The sentence (plain text).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { significanceLine } from "./leaderboard.ts";
 * const board = {
 *   suite: "s", metric: { name: "accuracy", label: "accuracy", description: "", share: true },
 *   entries: [], gaps: [
 *     { who: "b", diff: 0.2, p: 0.0001, significant: true },
 *     { who: "c", diff: 0.01, p: 0.8, significant: false },
 *   ],
 * };
 * board.entries = [{ who: "a" }, { who: "b" }, { who: "c" }] as never;
 * assert.equal(
 *   significanceLine(board),
 *   "a leads. Its lead is significant over b (+20.0 points, p < 0.001); not over c (+1.0 points, p = 0.80). Exact McNemar test on the questions both answered, Holm-corrected at 5%.",
 * );
 * ```
 */
export function significanceLine(board: SuiteLeaderboard): string {
  const leader = board.entries[0];
  if (leader === undefined) return "No model has scored rows.";
  if (board.entries.length === 1) return `${leader.who} is the only model.`;
  if (board.gaps.length === 0) {
    return `${leader.who} leads; the models share no question, so no paired test can compare them.`;
  }
  const say = (g: LeaderboardGap) =>
    `${g.who} (${points(g.diff)}, ${pText(g.p)})`;
  const yes = board.gaps.filter((g) => g.significant);
  const no = board.gaps.filter((g) => !g.significant);
  const parts = [
    ...(yes.length > 0 ? [`significant over ${yes.map(say).join(", ")}`] : []),
    ...(no.length > 0 ? [`not over ${no.map(say).join(", ")}`] : []),
  ];
  return `${leader.who} leads. Its lead is ${
    parts.join("; ")
  }. Exact McNemar test on the questions both answered, Holm-corrected at 5%.`;
}

/**
 * A leaderboard drawn: a dot per model at its value with its 95% interval
 * as a whisker, best at the top, the value printed beside it.
 *
 * @param board A suite's leaderboard.
 * @returns The chart's HTML.
 */
function boardChart(board: SuiteLeaderboard): string {
  const data = board.entries.filter((e) => e.value !== null);
  const label = (v: number) =>
    board.metric.share ? `${(v * 100).toFixed(1)}%` : v.toPrecision(3);
  const whisker = data.filter((e) => e.lo !== null && e.hi !== null);
  return renderPlot(`${board.suite}: ${board.metric.label}`, {
    width: 540,
    height: 40 + 28 * data.length,
    marginLeft: 150,
    marginRight: 70,
    x: board.metric.share
      ? {
        domain: [0, 1],
        tickFormat: pct,
        label: board.metric.label,
        grid: true,
      }
      : { label: board.metric.label, grid: true },
    y: { domain: data.map((e) => e.who), label: null },
    marks: [
      Plot.ruleY(whisker, {
        y: "who",
        x1: "lo",
        x2: "hi",
        stroke: "#4269d0",
        strokeWidth: 2,
      }),
      Plot.dot(data, { y: "who", x: "value", fill: "#4269d0", r: 4 }),
      Plot.text(data, {
        y: "who",
        x: "value",
        text: (d: LeaderboardEntry) => label(d.value!),
        dx: 8,
        dy: -8,
        textAnchor: "start",
      }),
    ],
  }).html;
}

/**
 * The report's opening section: per suite a ranked table with human
 * labels (the metric, its 95% interval, format ok, n), the chart of the
 * values with their intervals, and the significance line.
 *
 * @param boards What {@linkcode leaderboards} returned.
 * @returns HTML fragments, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leaderboardHtml } from "./leaderboard.ts";
 * const html = leaderboardHtml([{
 *   suite: "s", metric: { name: "accuracy", label: "accuracy", description: "d", share: true },
 *   entries: [{ who: "a", value: 0.5, lo: 0.4, hi: 0.6, n: 100, formatOk: 1 }], gaps: [],
 * }]).join("");
 * assert.match(html, /<th>accuracy<\/th><th>95% interval<\/th><th>format ok<\/th><th>n<\/th>/);
 * assert.match(html, /<td>a<\/td><td class="num">50\.0%<\/td><td class="num">40\.0–60\.0%<\/td>/);
 * ```
 */
export function leaderboardHtml(
  boards: readonly SuiteLeaderboard[],
): string[] {
  const parts: string[] = [];
  for (const board of boards) {
    const share = board.metric.share;
    const fmt = (v: number | null) =>
      v === null ? "–" : share ? `${(v * 100).toFixed(1)}%` : v.toPrecision(3);
    const interval = (e: LeaderboardEntry) =>
      e.lo === null || e.hi === null
        ? "–"
        : share
        ? `${(e.lo * 100).toFixed(1)}–${(e.hi * 100).toFixed(1)}%`
        : `${e.lo.toPrecision(3)}–${e.hi.toPrecision(3)}`;
    const hasInterval = board.entries.some((e) => e.lo !== null);
    const hasFormat = board.entries.some((e) => e.formatOk !== null);
    const head = [
      "rank",
      "model",
      board.metric.label,
      ...(hasInterval ? ["95% interval"] : []),
      ...(hasFormat ? ["format ok"] : []),
      "n",
    ];
    const rows = board.entries.map((e, i) =>
      `<tr><td class="num">${i + 1}</td><td>${escapeHtml(e.who)}</td>` +
      `<td class="num">${fmt(e.value)}</td>` +
      (hasInterval ? `<td class="num">${interval(e)}</td>` : "") +
      (hasFormat
        ? `<td class="num">${
          e.formatOk === null ? "–" : `${(e.formatOk * 100).toFixed(1)}%`
        }</td>`
        : "") +
      `<td class="num">${e.n}</td></tr>`
    ).join("");
    parts.push(
      `<div class="leaderboard"><h3>${escapeHtml(board.suite)}</h3>`,
      `<div class="board-row"><table class="eval-table"><thead><tr>${
        head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")
      }</tr></thead><tbody>${rows}</tbody></table>${boardChart(board)}</div>`,
      `<p class="significance">${escapeHtml(significanceLine(board))}</p>`,
      `<p class="note"><b>${escapeHtml(board.metric.label)}</b>: ${
        escapeHtml(board.metric.description)
      }.</p></div>`,
    );
  }
  return parts;
}
