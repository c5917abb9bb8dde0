/**
 * The code suite's questions: one per (problem, language), from the
 * project's bank or from HumanEval. The answer key of a bank problem is
 * the outputs of its JavaScript reference on every functional and edge
 * test, computed in the sandbox when the questions are made (the test
 * `references_test.ts` checks that the Python reference agrees).
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Question } from "../../types.ts";
import {
  defaultSandbox,
  type Sandbox,
  type SandboxValue,
} from "../../sandbox/mod.ts";
import { referenceOutputsOn } from "./_expected.ts";
import type { CodeRunState } from "./run.ts";
import { HUMANEVAL_PATH, loadHumanEval } from "../../sandbox/mod.ts";
import { InputLog } from "../../inputs/mod.ts";
import { type CodeProblem, loadBank } from "./bank/mod.ts";
import type { CodeLanguage, CodeParams } from "./params.ts";

/** What a code question carries besides its text and key. */
export type CodePayload = {
  problemId: string;
  source: "bank" | "humaneval";
  language: CodeLanguage;
  /** The function to call. */
  entry: string;
  /** The signature shown to the model, in the asked language. */
  signature: string;
  statement: { en: string; zh: string };
  /** The reference's outputs on the functional and edge tests, in test order (bank). */
  expected?: SandboxValue[];
  /** Seed of the large-input generator. */
  inputSeed: number;
  /** HumanEval: the prompt (signature and docstring) and its check(). */
  prompt?: string;
  test?: string;
};

/** A code question. */
export type CodeQuestion = Question<CodePayload>;

/**
 * JSON with bigints as decimal strings and Maps as objects (answer keys of
 * big results).
 *
 * @param values The reference's outputs.
 * @returns The key's text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyText } from "./questions.ts";
 * assert.equal(keyText([1n, new Map([["a", 2]]), null]), '["1",{"a":2},null]');
 * ```
 */
export function keyText(values: readonly unknown[]): string {
  return JSON.stringify(
    values,
    (_k, v) =>
      typeof v === "bigint"
        ? v.toString()
        : v instanceof Map
        ? Object.fromEntries(v)
        : v,
  );
}

/**
 * The JavaScript reference's outputs on every test (the answer key of a
 * bank problem), run in `sandbox`.
 *
 * @param problem A bank problem.
 * @param sandbox Where to run it. @default the process's default sandbox
 *   (`defaultSandbox`; `closeSandbox()` frees it)
 * @returns One output per test, in test order.
 * @throws {Error} naming the reference file when the reference fails a
 *   test or does not finish.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSandbox } from "../../sandbox/mod.ts";
 * import { expectedOutputs, loadBank } from "./mod.ts";
 * const [problem] = await loadBank();
 * const outputs = await expectedOutputs(problem!);
 * assert.equal(outputs.length, problem!.tests.length);
 * await closeSandbox();
 * ```
 */
export function expectedOutputs(
  problem: CodeProblem,
  sandbox: Sandbox = defaultSandbox(),
): Promise<SandboxValue[]> {
  return referenceOutputsOn(problem, sandbox);
}

function selectProblems(all: CodeProblem[], p: CodeParams): CodeProblem[] {
  let out = all.filter((q) =>
    (p.topics === undefined || p.topics.includes(q.topic)) &&
    (p.difficulties === undefined || p.difficulties.includes(q.difficulty))
  );
  if (Array.isArray(p.problems)) {
    const known = new Set(all.map((q) => q.id));
    const missing = p.problems.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new RangeError(
        `Cannot find code problems ${
          missing.join(", ")
        }; known ids are the folder names under data/code/problems`,
      );
    }
    const kept = new Set(out.map((q) => q.id));
    const named = new Set(p.problems);
    const filtered = all.filter((q) => named.has(q.id) && !kept.has(q.id));
    if (filtered.length > 0) {
      throw new RangeError(
        `Cannot take code problems ${
          filtered.map((q) => `${q.id} (${q.topic}, ${q.difficulty})`).join(
            ", ",
          )
        }: they are outside the chosen ${
          [
            p.topics ? `topics (${p.topics.join(", ")})` : "",
            p.difficulties ? `difficulties (${p.difficulties.join(", ")})` : "",
          ].filter(Boolean).join(" and ")
        }; add their topic or difficulty, or leave them out of "problems"`,
      );
    }
    const wanted = new Set(p.problems);
    out = out.filter((q) => wanted.has(q.id));
  } else if (typeof p.problems === "number") {
    out = out.slice(0, p.problems);
  }
  if (out.length === 0) {
    throw new RangeError(
      `Cannot take code problems: no problem of the bank has ${
        [
          p.topics ? `topic ${p.topics.join(" or ")}` : "",
          p.difficulties ? `difficulty ${p.difficulties.join(" or ")}` : "",
        ].filter(Boolean).join(" and ")
      }; the bank's topics are ${
        [...new Set(all.map((q) => q.topic))].sort().join(", ")
      }`,
    );
  }
  return out;
}

/**
 * The questions for these params: bank problems × languages (keys from
 * the reference, run on the run's sandbox), or HumanEval's 164 problems
 * in Python. Bank problems are also kept in the run's `problems` for the
 * scorer.
 *
 * @param p The suite's validated params.
 * @param options The folder a relative `dataset` resolves against, the
 *   sweep seed (the large-input seed unless `inputSeed`), the input log
 *   and the run's state.
 * @returns One question per (problem, language).
 * @throws {RangeError} for problem ids the bank does not have.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CODE_PARAMS, codeQuestions, CodeRunState } from "./mod.ts";
 * const p = CODE_PARAMS.parse({ problems: 1, languages: ["javascript"] });
 * const state = new CodeRunState(p);
 * const [q] = await codeQuestions(p, { baseDir: ".", seed: 0, state });
 * assert.match(q!.id, /^code\/bank\/\w+\/javascript$/);
 * assert.equal(q!.dims.language, "javascript");
 * assert.equal(state.problems.size, 1);
 * await state.close();
 * ```
 */
export async function codeQuestions(
  p: CodeParams,
  options: {
    baseDir: string;
    seed: number;
    inputs?: InputLog | undefined;
    state: CodeRunState;
  },
): Promise<CodeQuestion[]> {
  const { baseDir, seed, inputs = new InputLog({ baseDir }), state } = options;
  const inputSeed = p.inputSeed ?? seed;
  if (p.source === "humaneval") {
    return await humanEvalQuestions(p, inputSeed, inputs);
  }
  const dir = p.dataset === undefined
    ? undefined
    : isAbsolute(p.dataset)
    ? p.dataset
    : join(baseDir, p.dataset);
  const problems = selectProblems(await loadBank(dir, { inputs }), p);
  const sandbox = state.sandbox();
  const keys = await Promise.all(
    problems.map((problem) => state.references.of(problem, sandbox)),
  );
  const out: CodeQuestion[] = [];
  problems.forEach((problem, i) => {
    state.problems.set(problem.id, problem);
    const expected = keys[i]!;
    for (const language of p.languages) {
      out.push({
        id: `code/bank/${problem.id}/${language}`,
        suite: "code",
        text: problem.statement.en,
        answer: { kind: "text", value: keyText(expected) },
        dims: {
          topic: problem.topic,
          difficulty: problem.difficulty,
          language,
          complexity: problem.complexity,
          source: "bank",
          problem: problem.id,
        },
        payload: {
          problemId: problem.id,
          source: "bank",
          language,
          entry: problem.entry[language],
          signature: problem.signature[language],
          statement: problem.statement,
          expected,
          inputSeed,
        },
      });
    }
  });
  return out;
}

async function humanEvalQuestions(
  p: CodeParams,
  inputSeed: number,
  inputs: InputLog,
): Promise<CodeQuestion[]> {
  // The published file, recorded by content for the run's identity.
  await inputs.readBytes(fileURLToPath(HUMANEVAL_PATH));
  let problems = await loadHumanEval();
  if (typeof p.problems === "number") problems = problems.slice(0, p.problems);
  else if (Array.isArray(p.problems)) {
    const known = new Set(problems.map((q) => q.task_id));
    const missing = p.problems.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new RangeError(
        `Cannot find HumanEval tasks ${
          missing.map((id) => `"${id}"`).join(", ")
        }; HumanEval's task ids are ${problems[0]?.task_id} to ${
          problems.at(-1)?.task_id
        }`,
      );
    }
    const wanted = new Set(p.problems);
    problems = problems.filter((q) => wanted.has(q.task_id));
  }
  return problems.map((h) => ({
    id: `code/humaneval/${h.task_id}/python`,
    suite: "code",
    text: h.prompt,
    answer: { kind: "text", value: `check(${h.entry_point}) passes` },
    dims: {
      topic: null,
      difficulty: null,
      language: "python",
      complexity: null,
      source: "humaneval",
      problem: h.task_id,
    },
    payload: {
      problemId: h.task_id,
      source: "humaneval",
      language: "python",
      entry: h.entry_point,
      signature: h.prompt,
      statement: { en: h.prompt, zh: h.prompt },
      prompt: h.prompt,
      test: h.test,
      inputSeed,
    },
  }));
}
