/**
 * The notes under a plan's table: how its requests, tokens, output
 * estimates, latency, wall time and cost were made.
 *
 * @module
 */
import type { SweepConfig } from "../config/schema.ts";
import type { Plan } from "./plan.ts";
import { ASSUMED_BASE_LATENCY_MS, ASSUMED_MS_PER_TOKEN } from "./wall_time.ts";

const count = new Intl.NumberFormat("en-US");

/**
 * One line on how each of a plan's numbers was made, naming only the
 * methods the plan used.
 */
export function planNotes(
  plan: Plan,
  config: SweepConfig,
  tools: boolean,
): string[] {
  const notes: string[] = [];
  const { prompts, distinct, ms } = plan.counting;
  // Models whose samples go through `n` (as the runner groups them).
  const grouped = config.samples > 1
    ? config.models.filter((m) => m.n === true).map((m) => m.name)
    : [];
  notes.push(
    `Requests: one per row the sweep writes (models × questions × templates × ${config.samples} sample${
      config.samples === 1 ? "" : "s"
    })${
      grouped.length > 0
        ? `, except that ${
          grouped.join(", ")
        } (n: true) ask for the samples of a (question, template) in one request (at most 128 a request; templates with tools ask per sample), the prompt counted once per request and the output per row`
        : ""
    }; nothing was sent and nothing written.`,
  );
  const adaptive = config.suites.flatMap((entry, i) =>
    entry.adaptive === undefined ? [] : [`suites[${i}] (${entry.name})`]
  );
  if (adaptive.length > 0) {
    notes.push(
      `Adaptive entries (${
        adaptive.join(", ")
      }) are planned at their most, every question of every size; each design stops once its breaking point is pinned or no question left could narrow it (on the sim's multiplication it asked about 30% of its questions; docs/adaptive.md).`,
    );
  }
  notes.push(
    `Input tokens: every prompt rendered as sent and counted exactly with gpt-tokenizer (${
      count.format(prompts)
    } prompts, ${count.format(distinct)} distinct per encoding, ${
      Math.round(ms)
    } ms), plus OpenAI's chat overhead (3 tokens a message, 3 to prime the reply); tool definitions counted as their JSON text.`,
  );
  const byNote = new Map<string, string[]>();
  for (const m of plan.models) {
    byNote.set(m.encoding.note, [...byNote.get(m.encoding.note) ?? [], m.name]);
  }
  for (const [note, names] of byNote) {
    notes.push(`Encoding of ${names.join(", ")}: ${note}.`);
  }
  const sources = new Set(plan.rows.map((r) => r.outputSource));
  const how: string[] = [];
  if (sources.has("measured")) {
    how.push(
      "measured = mean completion_tokens of an earlier run of the same model, suite and template",
    );
  }
  if (sources.has("suite")) {
    how.push("suite = the suite's typical reply length");
  }
  if (sources.has("heuristic")) {
    how.push(
      "heuristic = from the template: answer only 16 tokens, shows working max_tokens/3, other max_tokens/4",
    );
  }
  notes.push(
    `Output tokens: ${how.join("; ")}. Upper bound: requests × max_tokens.`,
  );
  const lat = new Set(plan.rows.map((r) => r.latencySource));
  const latency: string[] = [];
  if (lat.has("measured")) {
    latency.push("measured = median latency_ms of an earlier run");
  }
  if (lat.has("sim")) {
    latency.push(
      "sim = the sim profile's simulated latency (base + per output token, from the estimate)",
    );
  }
  if (lat.has("assumed")) {
    latency.push(
      `assumed = ${ASSUMED_BASE_LATENCY_MS} ms + ${ASSUMED_MS_PER_TOKEN} ms per output token (nothing measured; plan from a run with --plan-from for a better figure)`,
    );
  }
  notes.push(`Latency: ${latency.join("; ")}.`);
  if (config.models.some((m) => m.provider === "sim")) {
    notes.push(
      "The sim's latency is simulated: in process it answers without waiting, so a sim sweep takes far less than its planned wall time (CPU and scoring set its pace).",
    );
  }
  notes.push(
    `Wall time: requests ÷ min(concurrency ÷ latency, RPM ÷ 60, TPM ÷ (input + max_tokens per request) ÷ 60) per row, summed per model; models run side by side within the sweep's concurrency (${config.concurrency}). Retries and scoring time are not counted.`,
  );
  if (plan.totals.cost === null) {
    notes.push(
      "Cost: no model has a price; add price: { input, output } (per million tokens) to a model to see it.",
    );
  } else {
    notes.push(
      `Cost: input × price.input + output × price.output per million tokens; batch = online × (1 − price.batchDiscount, default 0.5).${
        plan.unpriced.length > 0
          ? ` No price for ${plan.unpriced.join(", ")} (not in the cost).`
          : ""
      }`,
    );
  }
  if (tools) {
    notes.push(
      "Templates with tools may take more than one request per row (the tool loop); each row is counted as one request.",
    );
  }
  return notes;
}
