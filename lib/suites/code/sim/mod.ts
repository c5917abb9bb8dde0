/**
 * The sim writes code: the code suite's skill for the simulated model.
 *
 * It reads the prompt like a model would: a line starting with
 * `def name(` (Python) or `function name(` (JavaScript), a request to
 * write, implement or complete it ("Write", "implement", "编写", "实现",
 * "补全") and a request for a fenced block. The shown signature decides the
 * asked language; the function name identifies the problem among the
 * bank's (`data/code/problems`, read once, synchronously, at first use).
 * Like a model that has seen these problems, the sim *recalls* the
 * solutions of problems it recognises by name; it never reads their tests
 * or expected outputs. HumanEval prompts are recognised the same way (the
 * entry name and the prompt text, against `data/humaneval`'s canonical
 * solutions; effective size 4; no naive, slow or other-language variants
 * there). An unknown function gets a stub that returns None/null.
 *
 * ## What it writes
 *
 * Per request, with the request's seeded rng (same request and seed, same
 * reply; another seed, another sample), on the calibration scale of
 * `passChance` with effective size easy 3, medium 4.5, hard 6.5 (+0.3 for a
 * Chinese prompt, −0.4 when the prompt asks for the approach first):
 *
 * 1. With `passChance(size)` the code is right: the bank's reference in the
 *    asked language, or (failing a second draw at size + 1.5) the naive,
 *    slower solution when the bank has one in that language.
 * 2. Otherwise one of: a mutant of the reference (one flipped comparison
 *    or equality, off-by-one constant, swapped `+`/`-` or `and`/`or`)
 *    55 %, code that loops forever once its sequences pass 600 elements
 *    15 % (a mutant for functions of numbers only), a syntax error 8 %,
 *    prose without code 7 % and the reference in the other language 5 %
 *    (each of the last two + half the profile's non-compliance).
 *
 * So `sim-strong` and `sim-reasoner` pass nearly every easy problem and
 * fall on hard ones; `sim-weak` writes naive or buggy code far more often.
 *
 * ## How the reply reads
 *
 * The answer is a block answer (`SkillAnswer.block`): the fenced code
 * (after a short plan for the `plan` template), which the engine's
 * renderer shows as a model's code reply, never inside an answer
 * sentence. Plain profiles open with a lead-in ("Here is the function:",
 * "代码如下：" for the `zh` template) 60 % of the time and close with a
 * one-line note on the complexity 35 % of the time; `sim-chatty` opens
 * with "Sure!" or "好的！" and closes with the note and "Hope this helps!".
 * `steps` hold the plan, so the rest of each profile's style comes
 * through too: `<think>` blocks for `sim-think`, `reasoning_content` for
 * `sim-reasoner`, runaway working for `sim-weak` now and then.
 *
 * Like real models, a share of the code replies (15 % plus a fifth of the
 * profile's non-compliance: about 15 % for `sim-strong`, 24 % for
 * `sim-chatty`; drawn from the request's seeded rng) carry a usage example
 * after the function in the same block: mostly an `if __name__ ==
 * "__main__":` block with a print for Python, a commented print otherwise;
 * a commented `console.log(...)` for JavaScript. Its arguments come from
 * the signature's parameter names and types (or a HumanEval prompt's
 * first doctest), not from the tests; extraction drops it. Prose replies
 * and stubs for unknown functions carry none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { simChat } from "../../../providers/sim/mod.ts";
 * import { codeSkill } from "./mod.ts";
 *
 * const fence = "`".repeat(3);
 * const { response } = simChat({
 *   model: "sim-reasoner",
 *   messages: [{
 *     role: "user",
 *     content: `Write the function squaresSorted in JavaScript:\n\n${fence}javascript\n` +
 *       `function squaresSorted(nums)\n${fence}\n\nReply in one ${fence}javascript code block.`,
 *   }],
 *   seed: 2,
 * }, [codeSkill]);
 * const message = (response.choices as { message: Record<string, unknown> }[])[0]!.message;
 * assert.equal(typeof message.reasoning_content, "string");
 * ```
 *
 * @module
 */
export type { CodeAnswer, CodeOutcome, CodeTask } from "./types.ts";
export { readCodeTask } from "./read_task.ts";
export { solveCodeTask } from "./solve_task.ts";
export { codeSkill } from "./skill.ts";
// What `CodeTask` carries of the sim's recall of the bank and HumanEval.
export type {
  RecalledHumanEval,
  RecalledProblem,
  SimLanguage,
} from "./_bank.ts";
