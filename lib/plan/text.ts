/**
 * A plan as a plain-text table with its totals and notes, for the terminal.
 *
 * @module
 */
import type { TokenCost } from "./cost.ts";
import type { Plan } from "./plan.ts";
import type { PlanPrecision } from "./precision.ts";
import { formatDuration } from "../duration.ts";

const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

// The plan's durations are the project's one formatter in its default
// style (`45 s`, `12 min`, `3.0 h`, `2.1 d`); re-exported where it always was.
export { formatDuration, type FormatDurationOptions } from "../duration.ts";

function money(value: number): string {
  if (value === 0) return "$0";
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

function costCells(cost: TokenCost | null): [string, string] {
  return cost === null ? ["—", "—"] : [money(cost.online), money(cost.batch)];
}

// A dozen lines of padding: a table library would be a dependency for one
// plain-text table.
function table(header: string[], rows: string[][], numeric: boolean[]): string {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => r[i]!.length))
  );
  const line = (cells: string[]) =>
    cells.map((c, i) =>
      numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)
    ).join("  ").trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/**
 * The plan as text: one line per model × suite × template (requests, the
 * rows they write when a model's `n` makes them differ, input tokens,
 * output estimate and how it was made, its upper bound, online and
 * batch cost, latency, wall time and the limit that sets it), a line per
 * model, the totals, then notes on how each number was made.
 *
 * @param plan What `planSweep` returned.
 * @returns The text to print.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planText } from "./text.ts";
 * const text = planText({
 *   name: "toy", rows: [], models: [], unpriced: [], notes: ["A note."],
 *   totals: { requests: 0, rows: 0, inputTokens: 0, outputTokens: 0, outputTokensMax: 0, cost: null, wallSeconds: 0 },
 *   counting: { prompts: 0, distinct: 0, ms: 0 },
 *   precision: { difference: 0.05, power: 0.8, alpha: 0.05, suites: [] },
 * });
 * assert.match(text, /^Plan for "toy": 0 requests/);
 * assert.match(text, /A note\./);
 * ```
 */
export function planText(plan: Plan): string {
  const t = plan.totals;
  // Rows differ from requests only with a model's `n`; else the column is noise.
  const showRows = t.rows !== t.requests;
  const rowsCell = (n: number) => showRows ? [int.format(n)] : [];
  const header = [
    "model",
    "suite",
    "template",
    "requests",
    ...(showRows ? ["rows"] : []),
    "input tok",
    "output tok",
    "output from",
    "max output",
    "online",
    "batch",
    "latency",
    "wall",
    "bound",
  ];
  const numeric = header.map((h) =>
    !["model", "suite", "template", "output from", "bound"].includes(h)
  );
  const body: string[][] = [];
  for (const model of plan.models) {
    const rows = plan.rows.filter((r) => r.model === model.name);
    for (const r of rows) {
      body.push([
        r.model,
        r.suite,
        r.template,
        int.format(r.requests),
        ...rowsCell(r.rows),
        int.format(r.inputTokens),
        int.format(r.outputTokens),
        r.outputSource,
        int.format(r.outputTokensMax),
        ...costCells(r.cost),
        `${(r.latencyMs / 1000).toFixed(1)} s ${r.latencySource}`,
        formatDuration(r.wallSeconds),
        r.bound,
      ]);
    }
    if (plan.models.length > 1 || rows.length > 1) {
      body.push([
        model.name,
        "(model)",
        "",
        int.format(model.requests),
        ...rowsCell(model.rows),
        int.format(model.inputTokens),
        int.format(model.outputTokens),
        "",
        int.format(model.outputTokensMax),
        ...costCells(model.cost),
        "",
        formatDuration(model.wallSeconds),
        `${model.concurrency} in flight`,
      ]);
    }
  }
  body.push([
    "total",
    "",
    "",
    int.format(t.requests),
    ...rowsCell(t.rows),
    int.format(t.inputTokens),
    int.format(t.outputTokens),
    "",
    int.format(t.outputTokensMax),
    ...costCells(t.cost),
    "",
    formatDuration(t.wallSeconds),
    "",
  ]);
  const title = `Plan for "${plan.name}": ${int.format(t.requests)} requests${
    showRows ? ` for ${int.format(t.rows)} rows` : ""
  }, ${int.format(t.inputTokens)} input tokens, about ${
    int.format(t.outputTokens)
  } output tokens (at most ${int.format(t.outputTokensMax)})${
    t.cost === null
      ? ", no price given"
      : `, ${money(t.cost.online)} online or ${money(t.cost.batch)} in a batch`
  }, about ${formatDuration(t.wallSeconds)}. Nothing was sent.`;
  return [
    title,
    "",
    table(header, body, numeric),
    "",
    ...plan.notes.map((n) => `- ${n}`),
    ...(plan.precision.suites.length === 0
      ? []
      : ["", precisionText(plan.precision)]),
  ].join("\n");
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** A share as a percent without a needless ".0" (5%, 2.5%). */
const whole = (x: number) => `${+(100 * x).toFixed(1)}%`;
const points = (x: number) => `${(100 * x).toFixed(1)} points`;

/**
 * The plan's precision and power section: each model's 95% interval at
 * the planned rows, then per suite the difference the planned questions
 * can detect and the questions the asked difference needs, with their cost.
 *
 * @param p The plan's precision (`Plan.precision`).
 * @returns The section's text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planPrecision } from "./precision.ts";
 * import { precisionText } from "./text.ts";
 * const rows = ["a", "b"].map((model) => ({ model, suite: "qa", rows: 100, cost: null }));
 * const text = precisionText(planPrecision(rows, { accuracy: () => null, discordant: () => null }));
 * assert.match(text, /qa\s+a\s+100\s+50.0%\s+assumed\s+± 9.6 points/);
 * assert.match(text, /5-point difference needs 1,6\d\d questions/);
 * ```
 */
export function precisionText(p: PlanPrecision): string {
  const header = ["suite", "model", "rows", "accuracy", "from", "95% interval"];
  const body = p.suites.flatMap((s) =>
    s.models.map((m) => [
      s.suite,
      m.model,
      int.format(m.rows),
      pct(m.accuracy),
      m.source,
      Number.isNaN(m.halfWidth) ? "—" : `± ${points(m.halfWidth)}`,
    ])
  );
  const lines = p.suites.filter((s) => s.models.length > 1).map((s) => {
    const why = {
      given: " (given)",
      measured:
        ", as the models of an earlier run did (pooled over pairs of models)",
      "independent errors":
        ", as independent errors at the models' mean accuracy would give",
    }[s.discordantSource];
    const share = `${
      pct(s.discordant)
    } of questions answered differently${why}`;
    const detect = s.detectable === null
      ? `${
        int.format(s.paired)
      } paired questions detect no difference at this power`
      : `${int.format(s.paired)} paired questions detect a difference of ${
        points(s.detectable)
      } or more`;
    const need = s.needed === null
      ? `a ${
        Math.round(100 * p.difference)
      }-point difference cannot occur with fewer discordant questions than that`
      : `a ${Math.round(100 * p.difference)}-point difference needs ${
        int.format(s.needed)
      } questions${
        s.neededCost === null
          ? ""
          : ` (${money(s.neededCost.online)} online or ${
            money(s.neededCost.batch)
          } in a batch for the priced models${
            s.unpriced.length ? `; ${s.unpriced.join(", ")} have no price` : ""
          })`
      }`;
    return `- ${s.suite}: ${detect}; ${need}; assuming ${share}.`;
  });
  return [
    `Precision and power: each model's 95% interval (Wilson) at the planned rows; the exact McNemar test the report runs on paired questions, two-sided ${
      whole(p.alpha)
    }, at ${
      whole(p.power)
    } power. Accuracy "measured" is an earlier run's, "assumed" is 50% (the widest interval); --assume-accuracy, --difference and --discordant change them.`,
    "",
    table(header, body, header.map((h) => ["rows", "accuracy"].includes(h))),
    "",
    ...lines,
  ].join("\n");
}
