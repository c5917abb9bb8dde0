/**
 * The sim's code-writing skill.
 *
 * @module
 */
import { passes } from "../../../providers/sim/skills/chance.ts";
import { pickWeighted, type Uniform } from "../../../providers/sim/rng.ts";
import {
  defineSkill,
  type RegisteredSkill,
  type SkillAnswer,
  type SkillInput,
} from "../../../providers/sim/skills/types.ts";
import {
  type RecalledHumanEval,
  type RecalledProblem,
  recallHumanEval,
  recallProblem,
  recallSource,
} from "./_bank.ts";
import type { CodeLanguage } from "../params.ts";
import {
  breakSyntax,
  mutateCode,
  paramsOf,
  slowOnLargeInput,
} from "./_edits.ts";
import {
  doctestCall,
  exampleCall,
  exampleShare,
  framing,
  usageExample,
} from "./_reply.ts";

/** What the sim may write for a code prompt. */
export type CodeOutcome =
  | "reference"
  | "naive"
  | "mutant"
  | "slow"
  | "syntax_error"
  | "prose"
  | "other_language"
  | "generic";

/** A code-writing request read from a prompt. */
export interface CodeTask {
  /** The asked language (from the signature shown: `def` or `function`). */
  language: CodeLanguage;
  /** The function name in the shown signature. */
  entry: string;
  /** The signature line as shown in the prompt. */
  signatureLine: string;
  /** The bank problem of that name, when the sim recognises it. */
  problem: RecalledProblem | null;
  /** The HumanEval problem of that name and prompt, when it recognises one. */
  humanEval: RecalledHumanEval | null;
  /** The prompt asks for the approach before the code (the `plan` template). */
  plan: boolean;
  /** The prompt is in Chinese. */
  chinese: boolean;
}

/** A skill answer that also says which outcome the sim chose. */
export interface CodeAnswer extends SkillAnswer {
  /** What the sim chose to write (the reference, a mutant, prose, ...). */
  outcome: CodeOutcome;
}

const SIGNATURE =
  /^[ \t]*(?:def[ \t]+([A-Za-z_]\w*)[ \t]*\(|(?:export[ \t]+)?(?:async[ \t]+)?function[ \t]+([A-Za-z_$][\w$]*)[ \t]*\()[^\n]*/gm;
const ASK = /\b(?:write|implement|complete)\b|编写|实现|补全|完成/i;
const FENCE_ASK = /```|\bcode block\b|代码块/i;
const PLAN_ASK =
  /explain your approach|plan (?:first|your)|approach first|先(?:说明|解释|给出)(?:你的)?思路/i;

/** Effective size on the calibration scale per difficulty. */
const SIZE = { easy: 3, medium: 4.5, hard: 6.5 } as const;
/** HumanEval problems are about as hard as the bank's easy-to-medium ones. */
const HUMANEVAL_SIZE = 4;
/** Unknown problems count as medium. */
const UNKNOWN_SIZE = 4.5;

/**
 * Reads a code-writing request from a prompt: a line starting with
 * `def name(` or `function name(`, a request to write or complete it, and
 * a fenced-code request.
 *
 * @param question The prompt text (the last user message).
 * @returns The task, or null when the prompt is not a code request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCodeTask } from "./mod.ts";
 *
 * const fence = "`".repeat(3);
 * const task = readCodeTask(
 *   `Write the function maxWindowSum in JavaScript:\n${fence}javascript\n` +
 *     `function maxWindowSum(nums, k)\n${fence}\nReply in one ${fence}javascript code block.`,
 * );
 * assert.equal(task?.language, "javascript");
 * assert.equal(task?.problem?.id, "max_window_sum");
 * assert.equal(readCodeTask("What is 2 + 2?"), null);
 * ```
 */
export function readCodeTask(question: string): CodeTask | null {
  if (!ASK.test(question) || !FENCE_ASK.test(question)) return null;
  // The first function the sim recognises (a HumanEval prompt may define
  // helpers before its entry), else the first one shown.
  const found = [...question.matchAll(SIGNATURE)].map((m) => {
    const language: CodeLanguage = m[1] !== undefined ? "python" : "javascript";
    const entry = (m[1] ?? m[2])!;
    const problem = recallProblem(entry) ?? null;
    const humanEval = problem === null && language === "python"
      ? recallHumanEval(entry, question) ?? null
      : null;
    return { m, language, entry, problem, humanEval };
  });
  const hit = found.find((f) => f.problem || f.humanEval) ?? found[0];
  if (!hit) return null;
  return {
    language: hit.language,
    entry: hit.entry,
    signatureLine: hit.m[0].trim(),
    problem: hit.problem,
    humanEval: hit.humanEval,
    plan: PLAN_ASK.test(question),
    chinese: /[\u4e00-\u9fff]/.test(question),
  };
}

const APPROACH: Record<string, [string, string]> = {
  arrays_hashing: [
    "keep a hash map of what has been seen in one pass",
    "一次遍历，用哈希表记录见过的元素",
  ],
  two_pointers: [
    "sort if needed and move two pointers towards each other",
    "必要时排序，再用双指针相向移动",
  ],
  sliding_window: [
    "slide a window over the input and update its state incrementally",
    "用滑动窗口遍历输入，增量维护窗口状态",
  ],
  stack_queue: ["use a monotonic stack or a deque", "使用单调栈或双端队列"],
  binary_search: [
    "binary search on the sorted order or on the answer",
    "在有序序列或答案上二分查找",
  ],
  sorting: ["sort, then scan once", "先排序，再扫描一遍"],
  heaps: ["keep a heap of the best candidates", "用堆维护最优的候选"],
  intervals: ["sort the intervals by start and sweep", "按起点排序区间后扫描"],
  strings: [
    "scan the string once with counters or a prefix function",
    "用计数或前缀函数扫描字符串一遍",
  ],
  dynamic_programming: [
    "define the subproblem and fill a DP table",
    "定义子问题并填写 DP 表",
  ],
  graphs: [
    "build an adjacency list and traverse it (BFS/DFS or Dijkstra)",
    "建立邻接表并遍历（BFS/DFS 或 Dijkstra）",
  ],
  union_find: ["merge components with union-find", "用并查集合并连通分量"],
  trees: ["traverse the tree from the parent links", "根据父节点关系遍历树"],
  greedy: [
    "make the locally best choice after sorting",
    "排序后每一步做局部最优选择",
  ],
  math: ["use the number-theoretic identity directly", "直接使用数论公式"],
  bit_manipulation: ["work bit by bit", "按位处理"],
};

function planSteps(
  p: RecalledProblem | null,
  naive: boolean,
  chinese: boolean,
): string[] {
  const k = chinese ? 1 : 0;
  if (!p) {
    return [
      chinese
        ? "思路：按题意逐步实现。"
        : "Approach: follow the description step by step.",
    ];
  }
  const approach = naive
    ? (chinese
      ? "直接枚举所有候选（暴力）"
      : "check every candidate directly (brute force)")
    : (APPROACH[p.topic]?.[k] ??
      (chinese ? "按题意实现" : "implement the description"));
  const cls = naive ? p.naiveComplexity : p.complexity;
  return chinese
    ? [
      `思路：${approach}。`,
      "边界：空输入、单个元素、重复元素。",
      `时间复杂度：${cls}。`,
    ]
    : [
      `Approach: ${approach}.`,
      "Edge cases: empty input, a single element, duplicates.",
      `Time complexity: ${cls}.`,
    ];
}

function fenced(code: string, language: CodeLanguage): string {
  return "```" + language + "\n" + code.trimEnd() + "\n```";
}

/** A function that does not solve anything: the sim's attempt at an unknown problem. */
function genericAttempt(task: CodeTask): string {
  if (task.language === "python") {
    const header = task.signatureLine.endsWith(":")
      ? task.signatureLine
      : `${task.signatureLine.replace(/\s*$/, "")}:`;
    return `${header}\n    # TODO: handle the general case\n    return None`;
  }
  const header = task.signatureLine.replace(/\s*\{?\s*$/, "");
  return `${header} {\n  // TODO: handle the general case\n  return null;\n}`;
}

function prose(p: RecalledProblem, chinese: boolean, rng: Uniform): string {
  const [en, zh] = APPROACH[p.topic] ??
    ["implement the description", "按题意实现"];
  if (chinese) {
    return `这道题可以这样做：${zh}，时间复杂度为 ${p.complexity}。需要的话我可以再写出完整代码。`;
  }
  return rng() < 0.5
    ? `To solve this, ${en}; that gives ${p.complexity} time. Let me know if you want the full code.`
    : `The idea: ${en}. Handle the empty input first, then return the result. This runs in ${p.complexity}.`;
}

/** Picks what the sim writes for a known problem. */
function chooseOutcome(
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
type Written =
  | { outcome: CodeOutcome; code: string; language: CodeLanguage }
  | { outcome: "prose"; prose: string };

function writeOutcome(
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
function writeHumanEval(
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
