/**
 * The linear-algebra suite: LinAlg-Bench reproduced (its 660 published
 * problems) and extended (generated problems at any size), in three input
 * formats, with exact keys, matrix/eigenvalue extraction and forensic
 * error labels.
 *
 * Params (all optional) in a sweep config:
 *
 * ```json
 * {
 *   "name": "linalg",
 *   "params": {
 *     "source": "linalgbench",
 *     "dataset": "../linalgbench",
 *     "sizes": [3, 4, 5],
 *     "tasks": ["determinant", "eigenvalue"],
 *     "count": 10,
 *     "formats": ["latex", "list", "table"],
 *     "eigen": "mixed",
 *     "exponent": 2,
 *     "tolerance": { "abs": 0.01 }
 *   },
 *   "templates": ["paper"]
 * }
 * ```
 *
 * - `source` `"linalgbench"` loads the CSVs (`dataset`: a folder or file,
 *   relative to the config file; default the shipped `data/linalgbench`),
 *   keeping the first `count` problems per (task, size) when `count` is
 *   given; `"generated"` draws `count` (default 10) new problems per
 *   (task, size) from the sweep seed.
 * - Each problem is asked once per format; dims hold task, size, format,
 *   tier and source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linalgSuite } from "./suite.ts";
 * const qs = await linalgSuite.questions({ seed: 1, params: { source: "generated", tasks: ["trace"], sizes: [6], count: 1, formats: ["table"] }, baseDir: "." });
 * assert.equal(qs[0]!.dims["size"], 6);
 * assert.match(qs[0]!.text, /\n\| *-?\d/);
 * assert.equal(linalgSuite.validateParams({ sizes: [1] }).ok, false);
 * ```
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { extractLinalgAnswer } from "../../extract/matrix.ts";
import { suiteExtract } from "../../extract/suite_extract.ts";
import { generateLinalg } from "./generate.ts";
import { judgeLinalg } from "./score.ts";
import { loadLinalgBench } from "./linalgbench.ts";
import {
  LINALG_TASKS,
  type LinalgPayload,
  type LinalgProblem,
  type LinalgQuestion,
  solveProblem,
  TASK_TIER,
} from "./tasks.ts";
import {
  LINALG_FORMATS,
  LINALG_TEMPLATES,
  type LinalgFormat,
  problemStatement,
} from "./templates.ts";
import type { Judged } from "../../types.ts";
import type { ScoreContext, Suite } from "../types.ts";
import { defineSuite, type RunInfo } from "../define.ts";
import { type ModelConfig, ModelSchema } from "../../config/schema.ts";
import type { Provider } from "../../providers/types.ts";
import { refineOne } from "./forensics_judge.ts";
import type { DimSpec } from "../../types.ts";
import { linalgSkill } from "./sim/skill.ts";
import { uniqueList } from "../../config/unique.ts";
import { importLazily } from "../../lazy.ts";
import { ACCURACY, accuracyBy, type Metric } from "../../judge/metric.ts";

type Sections = typeof import("./sections.ts");

/** The shipped LinAlg-Bench copy (used when `dataset` is not given). */
export const DEFAULT_LINALGBENCH_DIR: string = fileURLToPath(
  new URL("../../../data/linalgbench", import.meta.url),
);

/**
 * The linear-algebra suite's params (zod).
 *
 * @internal
 */
export const LinalgParamsSchema = z.strictObject({
  source: z.enum(["linalgbench", "generated"]).default("linalgbench"),
  dataset: z.string().min(1).optional(),
  // The lists are part of the question ids (row keys): each entry once.
  sizes: uniqueList(z.array(z.int().min(2).max(16)).min(1)).default([3, 4, 5]),
  tasks: uniqueList(z.array(z.enum(LINALG_TASKS)).min(1)).default([
    ...LINALG_TASKS,
  ]),
  count: z.int().positive().max(10_000).optional(),
  formats: uniqueList(z.array(z.enum(LINALG_FORMATS)).min(1)).default([
    "latex",
  ]),
  eigen: z.enum(["symmetric", "integer", "mixed"]).default("mixed"),
  exponent: z.int().min(0).max(8).default(2),
  /**
   * Stage 2 of the forensics: a judge model (any provider, the sim
   * included) that labels the first error of every wrong answer.
   */
  judge: ModelSchema.optional(),
  /** Stage 3: a validator model that confirms or corrects the label. */
  validator: ModelSchema.optional(),
  tolerance: z.strictObject({
    abs: z.number().nonnegative().optional(),
    rel: z.number().nonnegative().optional(),
  }).optional(),
}).refine((p) => p.source === "linalgbench" || p.dataset === undefined, {
  message: 'dataset applies only to source "linalgbench"',
  path: ["dataset"],
});

/** Most questions one generated linear-algebra entry may have (they are held in memory, with exact keys). */
export const MAX_LINALG_QUESTIONS = 100_000;

// `X.parse`'s return type is `z.infer<typeof X>`; `deno doc --lint` reports
// zod's private `output` type behind `z.infer`, not this spelling.
/** Validated linear-algebra params, defaults filled in. */
export type LinalgParams = ReturnType<typeof LinalgParamsSchema.parse>;

async function problems(
  { params: p, seed, baseDir, inputs }: RunInfo<LinalgParams>,
): Promise<{ problem: LinalgProblem; original?: string }[]> {
  if (p.source === "generated") {
    const planned = p.tasks.length * p.sizes.length * (p.count ?? 10) *
      p.formats.length;
    if (planned > MAX_LINALG_QUESTIONS) {
      throw new RangeError(
        `Cannot generate ${
          planned.toLocaleString("en")
        } linear-algebra questions (tasks × sizes × count × formats); one suite entry may have at most ${
          MAX_LINALG_QUESTIONS.toLocaleString("en")
        }: lower "count" or "sizes", or split the sweep`,
      );
    }
    return generateLinalg({
      seed,
      tasks: p.tasks,
      sizes: p.sizes,
      count: p.count ?? 10,
      exponent: p.exponent,
      eigen: p.eigen,
    }).map((problem) => ({ problem }));
  }
  const path = p.dataset === undefined
    ? DEFAULT_LINALGBENCH_DIR
    : isAbsolute(p.dataset)
    ? p.dataset
    : join(baseDir, p.dataset);
  const rows = await loadLinalgBench(path, inputs);
  if (rows.length === 0) {
    throw new RangeError(
      `Cannot load LinAlg-Bench: ${path} holds no problems (only a header); give a LinAlg-Bench CSV with rows, or a folder of them`,
    );
  }
  const taken = new Map<string, number>();
  const out: { problem: LinalgProblem; original?: string }[] = [];
  for (const row of rows) {
    const { task, n } = row.problem;
    if (!p.tasks.includes(task) || !p.sizes.includes(n)) continue;
    const k = `${task}/${n}`;
    const seen = taken.get(k) ?? 0;
    if (p.count !== undefined && seen >= p.count) continue;
    taken.set(k, seen + 1);
    out.push({ problem: row.problem, original: row.original });
  }
  return out;
}

function toQuestion(
  problem: LinalgProblem,
  format: LinalgFormat,
  p: LinalgParams,
  original?: string,
): LinalgQuestion {
  const payload: LinalgPayload = { problem };
  if (p.tolerance) payload.tolerance = p.tolerance;
  if (original !== undefined) payload.original = original;
  return {
    id: `linalg/${problem.source}/${problem.id}/${format}`,
    suite: "linalg",
    text: problemStatement(problem, format),
    answer: solveProblem(problem),
    dims: {
      task: problem.task,
      size: problem.n,
      format,
      tier: TASK_TIER[problem.task],
      source: problem.source,
    },
    payload,
  };
}

async function questions(
  run: RunInfo<LinalgParams>,
): Promise<LinalgQuestion[]> {
  const p = run.params;
  const out: LinalgQuestion[] = [];
  for (const { problem, original } of await problems(run)) {
    for (const format of p.formats) {
      out.push(toQuestion(problem, format, p, original));
    }
  }
  return out;
}

const extract = suiteExtract<LinalgQuestion>((text, question) => {
  const kind = question.answer.kind;
  return kind === "rational" || kind === "matrix" || kind === "multiset"
    ? extractLinalgAnswer(text, kind)
    : null;
});

/** A model named in the params, as a provider the runner makes and reuses. */
function viaContext(model: ModelConfig, context: ScoreContext): Provider {
  return {
    name: model.name,
    complete: (prompt) => context.complete(model, prompt),
  };
}

/**
 * Stage 1 rules always; stages 2 and 3 on wrong answers when the params
 * name a judge and/or validator. The final label is the row's error class;
 * the stage and the stage-1 label are kept as metrics.
 */
async function score(
  { question, completion, extraction }: Judged<LinalgPayload>,
  context: ScoreContext & { params: LinalgParams },
) {
  const verdict = judgeLinalg({ question, completion, extraction });
  if (verdict.status !== "wrong" && verdict.status !== "parse_error") {
    return verdict;
  }
  const stage1 = verdict.errorClass ?? null;
  const p = context.params;
  if (p.judge === undefined && p.validator === undefined) {
    return { ...verdict, metrics: { forensic_stage: 1 } };
  }
  const refined = await refineOne({ question, completion, stage1 }, {
    ...(p.judge ? { judge: viaContext(p.judge, context) } : {}),
    ...(p.validator ? { validator: viaContext(p.validator, context) } : {}),
  });
  const out = {
    ...verdict,
    metrics: {
      forensic_stage: refined.stage,
      stage1_label: stage1,
      forensic_unscored: refined.unscored ?? null,
    },
    explanation: [
      verdict.explanation,
      refined.detail === undefined
        ? null
        : `stage${refined.stage}: ${refined.detail}`,
      refined.unscored ?? null,
    ].filter((x) => x !== null && x !== undefined).join("\n"),
  };
  if (refined.label !== null) out.errorClass = refined.label;
  return out;
}

/** The dims linear-algebra questions carry. */
export const LINALG_DIMS: readonly DimSpec[] = [
  { name: "task", kind: "categorical", label: "task" },
  { name: "size", kind: "numeric", label: "matrix size n" },
  { name: "format", kind: "categorical", label: "input format" },
  { name: "tier", kind: "categorical", label: "task tier" },
  { name: "source", kind: "categorical", label: "source", show: false },
];

/**
 * The linear-algebra suite's headline metrics: accuracy (Wilson 95%) and
 * LinAlg-Bench's figure, accuracy at each matrix size n×n (the cliff).
 */
export const LINALG_METRICS: readonly Metric[] = [
  ACCURACY,
  accuracyBy("size", {
    name: "accuracy_size",
    label: "accuracy by size",
    description: "accuracy at each matrix size n×n (LinAlg-Bench's cliff)",
    partLabel: (n) => `${n}×${n}`,
  }),
];

/** The linear-algebra suite. */
export const linalgSuite: Suite<LinalgPayload> = defineSuite({
  name: "linalg",
  version: "1",
  description:
    "LinAlg-Bench reproduced and extended: nine matrix tasks at any size, three input formats, exact keys, forensic error labels.",
  params: LinalgParamsSchema,
  questions,
  templates: LINALG_TEMPLATES,
  defaultTemplates: ["paper"],
  baseline: "paper",
  dims: LINALG_DIMS,
  metrics: LINALG_METRICS,
  extract: ({ question, completion }) => extract(question, completion),
  score,
  detail: async (row) =>
    (await importLazily<typeof import("./detail.ts")>(
      "./detail.ts",
      import.meta.url,
    )).linalgDetail(row),
  // Imported when a report is made (lazily: see importLazily), so Polars
  // stays out of a sweep's start-up.
  sections: async (frame) =>
    (await importLazily<Sections>("./sections.ts", import.meta.url))
      .linalgSections(frame),
  sim: linalgSkill,
  // Adaptive sweeps move along the matrix size, one design per task (the
  // formats of a problem are questions of the same size).
  adaptive: {
    size: (q) =>
      typeof q.dims.task === "string" && typeof q.dims.size === "number"
        ? { group: q.dims.task, size: q.dims.size }
        : null,
  },
});
