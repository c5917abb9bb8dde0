/**
 * Plan before spending: what a sweep would send, per model × suite ×
 * template — requests, input tokens counted with a real tokenizer
 * (`gpt-tokenizer`: `o200k_base` or `cl100k_base`, approximate for other
 * families), an output-token estimate and how it was made, the cost online
 * and in a batch, and the expected wall time under the model's limits —
 * without sending anything or writing any file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig } from "../config/mod.ts";
 * import { SUITES } from "../suites/mod.ts";
 * import { planSweep, planText } from "./mod.ts";
 * const config = parseConfig({
 *   models: [{ name: "gpt-4o-mini", provider: "openai", baseURL: "https://api.openai.com/v1", price: { input: 0.15, output: 0.6 } }],
 *   suites: [{ name: "arithmetic", params: { families: ["mul"], digits: [3], count: 4 }, templates: ["direct"] }],
 * }, "inline", { suites: SUITES });
 * const plan = await planSweep(config, { suites: SUITES, measure: false });
 * assert.equal(plan.totals.requests, 4);
 * assert.equal(plan.models[0]?.encoding.encoding, "o200k_base");
 * assert.ok(plan.totals.cost !== null && plan.totals.cost.batch < plan.totals.cost.online);
 * assert.match(planText(plan), /gpt-4o-mini\s+arithmetic\s+direct\s+4 /);
 * ```
 *
 * @module
 */
export * from "./plan.ts";
export * from "./text.ts";
export * from "./cost.ts";
export * from "./wall_time.ts";
export * from "./encoding.ts";
export * from "./tokens.ts";
export * from "./output_estimate.ts";
export * from "./measured.ts";
export * from "./power.ts";
export * from "./precision.ts";
