/**
 * The simulated model ("sim"): a pure function from an OpenAI
 * chat-completions request to a deterministic ChatCompletion. It reads the
 * question from the prompt like a model would (no answer key), computes it
 * exactly, and errs the way real models do, at rates calibrated on
 * published figures. The in-process provider and the HTTP server wrap
 * {@linkcode simChat}.
 *
 * ## sim_profiles
 *
 * | profile        | skill shift | slips | refusals | compliance | style                              | reasoning           | tools | latency            |
 * | -------------- | ----------- | ----- | -------- | ---------- | ---------------------------------- | ------------------- | ----- | ------------------ |
 * | `sim-strong`   | +2 digits   | 0.2%  | 0        | 99.5%      | plain                              | none                | yes   | 250 ms + 12 ms/tok |
 * | `sim-average`  | 0 (llmmath) | 0     | 0.1%     | 97%        | plain                              | none                | yes   | 300 ms + 15 ms/tok |
 * | `sim-weak`     | −1.5 digits | 4%    | 3%       | 85%        | plain; 1% runaway working          | none                | no    | 200 ms + 10 ms/tok |
 * | `sim-chatty`   | 0           | 0.5%  | 0.2%     | 55%        | prose, **bold**, 1,234, "答案是 …。" | none                | yes   | 350 ms + 18 ms/tok |
 * | `sim-reasoner` | +3 digits   | 0.1%  | 0        | 99%        | plain                              | `reasoning_content` | yes   | 600 ms + 20 ms/tok |
 * | `sim-think`    | +2.5 digits | 0.2%  | 0        | 97%        | plain; 0.5% runaway thinking       | `<think>` in content | no    | 500 ms + 20 ms/tok |
 *
 * "Skill shift" places a profile on the `sim-average` curve: a problem of
 * effective size n is passed as often as `sim-average` passes n − shift.
 * `sim-average` passes n×n-digit products 96, 86, 66, 58, 24, 10, 0% of
 * the time for n = 2..7, 9 (sanand0/llmmath's 50-model averages).
 *
 * ## How a request is answered
 *
 * 1. The profile is looked up by `model` (unknown → {@linkcode SimModelError}).
 * 2. A seeded generator is derived from a hash of (model, messages,
 *    temperature, max_tokens, tool names) mixed with `seed`: same request,
 *    same bytes; another seed, another sample, even at temperature 0.
 * 3. Format instructions are read from the system and last user message
 *    (bare number, no commas, step by step, `Final answer:` / `答案：`,
 *    `\boxed{}`, JSON, decimals, fractions, few-shot style).
 * 4. The first skill in {@linkcode SIM_SKILLS} whose `match` accepts the
 *    question solves it; each operation passes with the calibrated
 *    {@linkcode passChance} and otherwise gets a {@linkcode makeMistake}
 *    slip. No skill → a polite non-answer ({@linkcode simSkillFor} says
 *    which skill, if any, reads a request; a sweep warns when a sim model
 *    read none of a suite's prompts).
 * 5. With a `calculator` tool offered, tool-using profiles call it first;
 *    a `role: "tool"` reply is then answered in the instructed format.
 * 6. The reply is rendered in the profile's style, cut at
 *    `max_tokens × 4` characters (finish_reason `"length"`), and priced:
 *    tokens ≈ characters / 4; latency = base + per-token × completion
 *    tokens + 0.02 ms × prompt tokens.
 *
 * Adding a skill: a suite owns its own, in `lib/suites/<name>/sim/skill.ts`
 * exporting `defineSkill({ name, match, solve })` (use `passes(input, size)`
 * for each step and `makeMistake` for numeric slips) and naming it in its
 * `Suite`'s `simSkills`; the registry (`lib/suites/registry.ts`) orders
 * them.
 *
 * @example Ask a question
 * ```ts
 * import assert from "node:assert/strict";
 * import { simChat } from "./mod.ts";
 *
 * const { response, latencyMs } = simChat({
 *   model: "sim-chatty",
 *   messages: [{ role: "user", content: "计算 123 × 456 等于多少？" }],
 *   temperature: 0,
 *   seed: 3,
 * });
 * assert.equal((response as { object: string }).object, "chat.completion");
 * assert.ok(latencyMs >= 350);
 * ```
 *
 * @module
 */
export * from "./types.ts";
export type { Uniform } from "../../math/rng.ts";
export * from "./errors.ts";
export * from "./profiles.ts";
export * from "./calibration.ts";
export * from "./mistakes.ts";
export { simChat, simSkillFor, tokensOfChars } from "./chat.ts";
export { choiceCount, choiceSeed, MAX_CHOICES, simChoices } from "./choices.ts";
export {
  defineSkill,
  findSkillAnswer,
  passChance,
  passes,
} from "./skills/mod.ts";
export type {
  RegisteredSkill,
  SimSkill,
  SkillAnswer,
  SkillInput,
} from "./skills/mod.ts";
export type { Instructions } from "./instructions.ts";
