/**
 * The algorithm-code suite: can a model write an algorithm that is
 * correct, fast enough and robust? Questions come from the project's
 * problem bank (`data/code`, Python and JavaScript) or from HumanEval;
 * candidates run in the sandbox (`lib/sandbox`); rows carry correctness,
 * measured complexity, robustness and quality metrics, which
 * `aggregate.ts` turns into pass@k and a weighted score.
 *
 * Params (all optional) in a sweep config:
 *
 * ```json
 * {
 *   "name": "code",
 *   "params": {
 *     "source": "bank",
 *     "languages": ["python", "javascript"],
 *     "topics": ["graphs", "dynamic_programming"],
 *     "difficulties": ["medium", "hard"],
 *     "problems": 10,
 *     "complexity": true,
 *     "quality": true,
 *     "timeoutMs": 10000,
 *     "memoryMb": 256
 *   },
 *   "templates": ["direct", "plan", "zh"]
 * }
 * ```
 *
 * Use `samples: 5` (or more) in the sweep for pass@k with n ≥ k.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codeSuite } from "./suite.ts";
 * assert.equal(codeSuite.validateParams({ languages: ["rust"] }).ok, false);
 * assert.equal(codeSuite.validateParams({ source: "humaneval", languages: ["python"] }).ok, true);
 * ```
 *
 * @module
 */
import { noExtraction } from "../../extract/suite_extract.ts";
import type { DimSpec, Reply } from "../../types.ts";
import type { Suite } from "../types.ts";
import { defineSuite } from "../define.ts";
import { extractCode } from "./extract.ts";
import { CodeParamsSchema } from "./params.ts";
import { type CodePayload, codeQuestions } from "./questions.ts";
import { type CodeRead, scoreCode } from "./score.ts";
import { codeSkill } from "./sim/mod.ts";
import { CODE_TEMPLATES } from "./templates.ts";
import { CodeRunState } from "./run.ts";
import { importLazily } from "../../lazy.ts";
import { CODE_METRICS } from "./metrics.ts";

type Sections = typeof import("./sections.ts");

/** The dims code questions carry. */
export const CODE_DIMS: readonly DimSpec[] = [
  { name: "topic", kind: "categorical", label: "topic" },
  { name: "difficulty", kind: "categorical", label: "difficulty" },
  { name: "language", kind: "categorical", label: "language" },
  { name: "complexity", kind: "categorical", label: "required complexity" },
  { name: "source", kind: "categorical", label: "source", show: false },
  { name: "problem", kind: "categorical", label: "problem", show: false },
];

/**
 * The program in a reply, with the code extraction it came from (so the
 * scorer does not parse the reply again). A failed request, or a reply
 * with no code, is an extraction with no value.
 */
async function extract(
  { question, completion }: Reply<CodePayload>,
  run: { state: CodeRunState },
): Promise<CodeRead> {
  if (completion.error !== undefined || question.payload === undefined) {
    return { ...noExtraction(), found: null };
  }
  const found = await extractCode(completion.text, {
    language: question.payload.language,
    entry: question.payload.entry,
    python: run.state.python(),
  });
  const { code: value, rule, span, candidates } = found;
  return { value, rule, span, candidates, found };
}

/** The algorithm-code suite. */
export const codeSuite: Suite<CodePayload> = defineSuite({
  name: "code",
  version: "1",
  description:
    "Algorithm code in Python and JavaScript, run in a sandbox: correctness (pass@k), measured time complexity, edge and large-input robustness, code quality and a weighted score; plus HumanEval.",
  params: CodeParamsSchema,
  open: ({ params }) => new CodeRunState(params),
  close: (state) => state.close(),
  questions: ({ params, baseDir, seed, inputs, state }) =>
    codeQuestions(params, { baseDir, seed, inputs, state }),
  templates: CODE_TEMPLATES,
  defaultTemplates: ["direct"],
  baseline: "direct",
  dims: CODE_DIMS,
  metrics: CODE_METRICS,
  extract,
  score: scoreCode,
  judging: async ({ params: p, state }) => {
    const sandbox = state.sandbox();
    const out: Record<string, string> = {};
    for (const language of p.languages) {
      const b = await sandbox.backend(language);
      out[language] = `${b.backend}: ${b.detail} (${b.reason}); isolation ${
        b.isolation ?? "rlimit"
      }`;
    }
    return out;
  },
  detail: async (row) =>
    (await importLazily<typeof import("./detail.ts")>(
      "./detail.ts",
      import.meta.url,
    )).codeDetail(row),
  // Imported when a report is made (lazily: see importLazily), so Polars
  // stays out of a sweep's start-up.
  sections: async (frame) =>
    (await importLazily<Sections>("./sections.ts", import.meta.url))
      .codeSections(frame),
  sim: codeSkill,
});
