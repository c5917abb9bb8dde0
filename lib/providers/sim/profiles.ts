/**
 * The named sim profiles and the `/v1/models` listing.
 *
 * @module
 */
import { SimModelError } from "./errors.ts";
import type { SimProfile } from "./types.ts";

/** Every sim profile, in listing order. */
export const SIM_PROFILES: readonly SimProfile[] = Object.freeze(
  [
    {
      name: "sim-strong",
      description:
        "Near perfect on small problems, degrades late (two digits of headroom over sim-average); follows format instructions.",
      skillShift: 2,
      slipRate: 0.002,
      refusalRate: 0,
      compliance: 0.995,
      chatty: false,
      thinking: "none",
      toolUse: true,
      runawayRate: 0,
      baseLatencyMs: 250,
      msPerToken: 12,
    },
    {
      name: "sim-average",
      description:
        "Calibrated on the sanand0/llmmath 50-model averages: n×n-digit products pass 96, 86, 66, 58, 24, 10, 0% at n = 2..7, 9.",
      skillShift: 0,
      slipRate: 0,
      refusalRate: 0.001,
      compliance: 0.97,
      chatty: false,
      thinking: "none",
      toolUse: true,
      runawayRate: 0,
      baseLatencyMs: 300,
      msPerToken: 15,
    },
    {
      name: "sim-weak",
      description:
        "Frequent mistakes (1.5 digits below sim-average plus slips), occasional refusals and runaway working; ignores tools.",
      skillShift: -1.5,
      slipRate: 0.04,
      refusalRate: 0.03,
      compliance: 0.85,
      chatty: false,
      thinking: "none",
      toolUse: false,
      runawayRate: 0.01,
      baseLatencyMs: 200,
      msPerToken: 10,
    },
    {
      name: "sim-chatty",
      description:
        "sim-average accuracy, but wraps answers in prose, markdown bold, thousands separators and Chinese sentences; often ignores 'only the number'.",
      skillShift: 0,
      slipRate: 0.005,
      refusalRate: 0.002,
      compliance: 0.55,
      chatty: true,
      thinking: "none",
      toolUse: true,
      runawayRate: 0,
      baseLatencyMs: 350,
      msPerToken: 18,
    },
    {
      name: "sim-reasoner",
      description:
        "Reasoning model: step-by-step work in a separate reasoning_content field, three digits of headroom, many more tokens; truncated at small max_tokens.",
      skillShift: 3,
      slipRate: 0.001,
      refusalRate: 0,
      compliance: 0.99,
      chatty: false,
      thinking: "field",
      toolUse: true,
      runawayRate: 0,
      baseLatencyMs: 600,
      msPerToken: 20,
    },
    {
      name: "sim-think",
      description:
        "Reasoning model that writes <think>…</think> in the content (like DeepSeek-R1 distills served raw), 2.5 digits of headroom, occasional runaway thinking.",
      skillShift: 2.5,
      slipRate: 0.002,
      refusalRate: 0,
      compliance: 0.97,
      chatty: false,
      thinking: "content",
      toolUse: false,
      runawayRate: 0.005,
      baseLatencyMs: 500,
      msPerToken: 20,
    },
  ] satisfies SimProfile[],
);

const BY_NAME = new Map(SIM_PROFILES.map((p) => [p.name, p]));

/**
 * Looks a profile up by model name.
 *
 * @param name The model name of a request.
 * @returns The profile.
 * @throws {SimModelError} When no profile has that name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getSimProfile, SimModelError } from "./mod.ts";
 *
 * assert.equal(getSimProfile("sim-reasoner").thinking, "field");
 * assert.throws(() => getSimProfile("gpt-4o"), SimModelError);
 * ```
 */
export function getSimProfile(name: string): SimProfile {
  const profile = BY_NAME.get(name);
  if (!profile) throw new SimModelError(name, [...BY_NAME.keys()]);
  return profile;
}

/**
 * The sim's models in the `/v1/models` shape (`created` is a fixed
 * constant so listings are byte-identical).
 *
 * @returns One entry per profile.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { simModelList } from "./mod.ts";
 *
 * const ids = simModelList().map((m) => m.id);
 * assert.ok(ids.includes("sim-average"));
 * assert.equal(simModelList()[0]?.owned_by, "sim");
 * ```
 */
export function simModelList(): {
  id: string;
  object: "model";
  created: number;
  owned_by: "sim";
}[] {
  return SIM_PROFILES.map((p) => ({
    id: p.name,
    object: "model" as const,
    created: SIM_CREATED,
    owned_by: "sim" as const,
  }));
}

/** The fixed `created` timestamp of every sim object (2025-01-01T00:00:00Z). */
export const SIM_CREATED = 1735689600;
