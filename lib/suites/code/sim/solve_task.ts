/**
 * Writes the sim's reply to a code task: the chosen outcome's code in a
 * fenced block (now and then with a usage example), the plan, and the
 * lines the renderer may put around it.
 *
 * @module
 */
import type { SkillInput } from "../../../providers/sim/skills/types.ts";
import type { CodeLanguage } from "../params.ts";
import {
  doctestCall,
  exampleCall,
  exampleShare,
  framing,
  usageExample,
} from "./_reply.ts";
import { planSteps } from "./_plan.ts";
import {
  chooseOutcome,
  genericAttempt,
  writeHumanEval,
  writeOutcome,
  type Written,
} from "./_write.ts";
import type { CodeAnswer, CodeTask } from "./types.ts";

/** Effective size on the calibration scale per difficulty. */
const SIZE = { easy: 3, medium: 4.5, hard: 6.5 } as const;
/** HumanEval problems are about as hard as the bank's easy-to-medium ones. */
const HUMANEVAL_SIZE = 4;
/** Unknown problems count as medium. */
const UNKNOWN_SIZE = 4.5;

/** The code as a fenced block in its language. */
function fenced(code: string, language: CodeLanguage): string {
  return "```" + language + "\n" + code.trimEnd() + "\n```";
}

/** The call a usage example of the written code makes, if the sim knows one. */
function exampleOf(task: CodeTask, language: CodeLanguage): string | null {
  if (task.problem !== null) {
    return exampleCall(
      task.problem.entry[language],
      task.problem.signature.python,
      language,
    );
  }
  if (task.humanEval !== null) {
    return doctestCall(task.humanEval.prompt, task.humanEval.entry);
  }
  return null;
}

/**
 * Writes the sim's reply to a code task: for a recognised bank problem,
 * with the profile's difficulty-dependent pass chance, the reference or
 * the naive solution, else a mutant, code that loops forever on large
 * input, a syntax error, prose without code, or the other language; for an
 * unknown problem a stub that returns None/null. Now and then (15 % plus
 * a fifth of the profile's non-compliance) the code of a recognised
 * problem is followed by a usage example in the same block.
 *
 * @param task The task read from the prompt.
 * @param input The skill input (profile, temperature, seeded rng).
 * @returns The answer: `answer` holds the fenced block (with the plan
 *   before it for the `plan` template), `block` the lead-ins and notes the
 *   renderer may put around it (none for the plan and for prose), `steps`
 *   a short plan.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getSimProfile, type SkillInput } from "../../../providers/sim/mod.ts";
 * import { readCodeTask, solveCodeTask } from "./mod.ts";
 *
 * const fence = "`".repeat(3);
 * const task = readCodeTask(
 *   `Write the function f in Python:\n${fence}python\ndef f(x):\n${fence}\nReply in one ${fence}python code block.`,
 * )!;
 * const input = { profile: getSimProfile("sim-strong"), temperature: 0, rng: () => 0.5 } as SkillInput;
 * const a = solveCodeTask(task, input);
 * assert.equal(a.outcome, "generic");
 * assert.ok(a.answer!.includes(`${fence}python\ndef f(x):\n`));
 * ```
 */
export function solveCodeTask(task: CodeTask, input: SkillInput): CodeAnswer {
  const p = task.problem;
  const base = p
    ? SIZE[p.difficulty]
    : task.humanEval
    ? HUMANEVAL_SIZE
    : UNKNOWN_SIZE;
  const size = base +
    (task.chinese ? 0.3 : 0) - (task.plan ? 0.4 : 0);
  const restatement = task.chinese
    ? `用 ${
      task.language === "python" ? "Python" : "JavaScript"
    } 编写函数 ${task.entry}`
    : `a ${
      task.language === "python" ? "Python" : "JavaScript"
    } function ${task.entry}${p ? ` (${p.title})` : ""}`;
  let written: Written = {
    outcome: "generic",
    code: genericAttempt(task),
    language: task.language,
  };
  if (p) {
    written = writeOutcome(chooseOutcome(input, size), p, task, input.rng);
  } else if (task.humanEval) {
    written = writeHumanEval(
      chooseOutcome(input, size),
      task.humanEval,
      task.chinese,
      input.rng,
    );
  }
  const outcome = written.outcome;
  const naive = outcome === "naive";
  const steps = planSteps(p, naive, task.chinese);
  let text: string;
  if ("prose" in written) text = written.prose;
  else {
    // Like real models, now and then a usage example after the function
    // (extraction drops it; the prompt said not to print).
    const call = exampleOf(task, written.language);
    const example = call !== null && input.rng() < exampleShare(input.profile)
      ? usageExample(call, written.language, input.rng)
      : null;
    const gap = written.language === "python" ? "\n\n\n" : "\n\n";
    text = fenced(
      example === null
        ? written.code
        : `${written.code.trimEnd()}${gap}${example}`,
      written.language,
    );
  }
  const bare = task.plan || outcome === "prose";
  const complexity = p ? (naive ? p.naiveComplexity : p.complexity) : null;
  const frame = framing(task.entry, task.chinese, complexity);
  return {
    answer: task.plan && outcome !== "prose"
      ? `${steps.join("\n")}\n\n${text}`
      : text,
    // A block of its own: no answer sentence around it.
    block: bare ? { leads: [], notes: [] } : frame,
    numeric: false,
    restatement,
    steps,
    difficulty: size,
    outcome,
  };
}
