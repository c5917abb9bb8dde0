/**
 * The sim's code-writing skill, as registered: it matches the prompts
 * `readCodeTask` reads and answers them with `solveCodeTask`.
 *
 * @module
 */
import {
  defineSkill,
  type RegisteredSkill,
} from "../../../providers/sim/skills/types.ts";
import { readCodeTask } from "./read_task.ts";
import { solveCodeTask } from "./solve_task.ts";
import type { CodeTask } from "./types.ts";

/**
 * The code-writing skill for the sim's registry (the code suite lists it
 * in `simSkills`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { simChat } from "../../../providers/sim/mod.ts";
 * import { codeSkill } from "./mod.ts";
 *
 * const fence = "`".repeat(3);
 * const request = {
 *   model: "sim-strong",
 *   messages: [{
 *     role: "user" as const,
 *     content: `Write the function max_window_sum in Python:\n\n${fence}python\n` +
 *       `def max_window_sum(nums: list[int], k: int) -> int | None:\n${fence}\n\n` +
 *       `Reply with the complete function in one ${fence}python code block.`,
 *   }],
 *   seed: 1,
 * };
 * const { response } = simChat(request, [codeSkill]);
 * const content = (response.choices as { message: { content: string } }[])[0]!.message.content;
 * assert.deepEqual(simChat(request, [codeSkill]), simChat(request, [codeSkill]));
 * assert.ok(content.includes(fence));
 * ```
 */
export const codeSkill: RegisteredSkill = defineSkill<CodeTask>({
  name: "code",
  match: ({ question }) => readCodeTask(question),
  solve: solveCodeTask,
});
