/**
 * What the sim writes for a code task: the outcome it draws from the
 * profile's pass chance, and the code (or prose) of that outcome for a
 * bank problem, a HumanEval problem or an unknown function.
 *
 * @module
 */
import { passes } from "../../../providers/sim/skills/chance.ts";
import { pickWeighted, type Uniform } from "../../../providers/sim/rng.ts";
import type { SkillInput } from "../../../providers/sim/skills/types.ts";
import {
  type RecalledHumanEval,
  type RecalledProblem,
  recallSource,
} from "./_bank.ts";
import type { CodeLanguage } from "../params.ts";
import {
  breakSyntax,
  mutateCode,
  paramsOf,
  slowOnLargeInput,
} from "./_edits.ts";
import { prose } from "./_plan.ts";
import type { CodeOutcome, CodeTask } from "./types.ts";

/** A function that does not solve anything: the sim's attempt at an unknown problem. */
export function genericAttempt(task: CodeTask): string {
  if (task.language === "python") {
    const header = task.signatureLine.endsWith(":")
      ? task.signatureLine
      : `${task.signatureLine.replace(/\s*$/, "")}:`;
    return `${header}\n    # TODO: handle the general case\n    return None`;
  }
  const header = task.signatureLine.replace(/\s*\{?\s*$/, "");
  return `${header} {\n  // TODO: handle the general case\n  return null;\n}`;
}

/** Picks what the sim writes for a known problem. */
export function chooseOutcome(
  input: SkillInput,
  size: number,
): CodeOutcome {
  if (passes(input, size)) {
    // Right, but not always the intended algorithm: weaker profiles and
    // harder problems fall back on brute force more often.
    return passes(input, size + 1.5) ? "reference" : "naive";
  }
  const lax = 1 - input.profile.compliance;
  return pickWeighted<CodeOutcome>(input.rng, {
    mutant: 0.55,
    slow: 0.15,
    syntax_error: 0.08,
    prose: 0.07 + 0.5 * lax,
    other_language: 0.05 + 0.5 * lax,
  });
}

/** What the sim wrote: code in a language, or prose without code. */
export type Written =
  | { outcome: CodeOutcome; code: string; language: CodeLanguage }
  | { outcome: "prose"; prose: string };

/** The code (or prose) of an outcome for a bank problem. */
export function writeOutcome(
  outcome: CodeOutcome,
  p: RecalledProblem,
  task: CodeTask,
  rng: Uniform,
): Written {
  const language = task.language;
  const reference = recallSource(p, "reference", language);
  if (reference === null) {
    return { outcome: "generic", code: genericAttempt(task), language };
  }
  switch (outcome) {
    case "naive": {
      const naive = recallSource(p, "naive", language);
      return naive === null
        ? { outcome: "reference", code: reference, language }
        : { outcome, code: naive, language };
    }
    case "mutant": {
      const m = mutateCode(reference, language, rng);
      return m === null
        ? writeOutcome("syntax_error", p, task, rng)
        : { outcome, code: m, language };
    }
    case "slow": {
      const s = slowOnLargeInput(
        reference,
        p.entry[language],
        paramsOf(p.signature.python),
        language,
      );
      return s === null
        ? writeOutcome("mutant", p, task, rng)
        : { outcome, code: s, language };
    }
    case "syntax_error":
      return {
        outcome,
        code: breakSyntax(reference, language, rng),
        language,
      };
    case "prose":
      return { outcome: "prose", prose: prose(p, task.chinese, rng) };
    case "other_language": {
      const other: CodeLanguage = language === "python"
        ? "javascript"
        : "python";
      const code = recallSource(p, "reference", other);
      return code === null
        ? writeOutcome("mutant", p, task, rng)
        : { outcome, code, language: other };
    }
    default:
      return { outcome: "reference", code: reference, language };
  }
}

/** The outcome for a HumanEval problem (Python only, no large inputs). */
export function writeHumanEval(
  outcome: CodeOutcome,
  h: RecalledHumanEval,
  chinese: boolean,
  rng: Uniform,
): Written {
  const solution = h.solution.replace(/^\s*\n/, "");
  const language = "python";
  switch (outcome) {
    case "reference":
    case "naive":
      return { outcome: "reference", code: solution, language };
    case "syntax_error":
      return {
        outcome,
        code: breakSyntax(solution, "python", rng),
        language,
      };
    case "prose":
      return {
        outcome: "prose",
        prose: chinese
          ? `按照文档字符串的要求逐步实现 ${h.entry} 即可，注意处理空输入。`
          : `You can implement ${h.entry} by following the docstring step by step, handling the empty input first.`,
      };
    default: {
      // No large inputs and no other language here: a slip instead.
      const m = mutateCode(solution, "python", rng);
      return m === null
        ? {
          outcome: "syntax_error",
          code: breakSyntax(solution, "python", rng),
          language,
        }
        : { outcome: "mutant", code: m, language };
    }
  }
}
