/**
 * The C-Eval suite: Chinese four-option exam questions from any C-Eval
 * layout (official CSV zip, Hugging Face parquet, per-subject JSON), the
 * official prompt modes in chat and completion form, robust letter
 * extraction and a multiple-choice judge.
 *
 * Params (all optional) in a sweep config:
 *
 * ```json
 * {
 *   "name": "ceval",
 *   "params": {
 *     "root": "../ceval",
 *     "layout": "auto",
 *     "split": "val",
 *     "subjects": "all",
 *     "shots": 5,
 *     "limit": 20
 *   },
 *   "templates": ["answer_only", "few_shot", "few_shot_cot", "few_shot_completion"]
 * }
 * ```
 *
 * - `root` is resolved against the config file's folder; without it the
 *   bundled dataset `data/ceval` (original questions, see its README) is
 *   used. Point it at an unpacked official zip or a Hugging Face download
 *   of `ceval/ceval-exam` to run the real benchmark.
 * - `subjects`: `"all"` (every subject found under root), `"hard"` (the 8
 *   C-Eval HARD subjects) or a list of subject keys.
 * - `shots`: dev examples (0–5, official order) given to the `few_shot*`
 *   templates; `limit` keeps the first N questions per subject.
 * - Test-split questions whose answers the files withhold get
 *   `answer.value === ""`; the judge marks them `unscored` and
 *   `cevalSubmission` turns their extractions into a submission file.
 *
 * Templates: `zero_shot`, `answer_only`, `cot`, `few_shot`, `few_shot_cot`
 * (chat form) and the same ids with `_completion` (one prompt text).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cevalSuite } from "./suite.ts";
 * const qs = await cevalSuite.questions({ seed: 0, params: { subjects: ["civil_servant"], shots: 2 }, baseDir: "." });
 * assert.equal(qs[0]!.dims.category, "Other");
 * assert.match(qs[0]!.answer.value as string, /^[ABCD]$/);
 * assert.equal(cevalSuite.validateParams({ shots: 6 }).ok, false);
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { choiceAnswer } from "../../extract/choice.ts";
import { suiteExtract } from "../../extract/suite_extract.ts";
import { judgeChoice } from "./score.ts";
import { loadCeval } from "./load.ts";
import type { CevalRecord } from "./load.ts";
import { CEVAL_SUBJECTS, cevalHardSubjects } from "./subjects.ts";
import {
  CEVAL_TEMPLATES,
  type CevalItem,
  type CevalPayload,
  type CevalQuestion,
  formatCevalItem,
} from "./templates.ts";
import type { Question } from "../../types.ts";
import type { Suite } from "../types.ts";
import { defineSuite, type RunInfo } from "../define.ts";
import type { DimSpec } from "../../types.ts";
import { multipleChoiceSkill } from "./sim/skill.ts";
import { uniqueList } from "../../config/unique.ts";
import { importLazily } from "../../lazy.ts";
import { CEVAL_METRICS } from "./metrics.ts";

type Sections = typeof import("./sections.ts");

const KNOWN_KEYS: ReadonlySet<string> = new Set(
  CEVAL_SUBJECTS.map((s) => s.key),
);

/**
 * The C-Eval suite's params (zod).
 *
 * @internal
 */
export const CevalParamsSchema = z.strictObject({
  /** Dataset folder, relative to the config file; default: the bundled set. */
  root: z.string().min(1).optional(),
  layout: z.enum(["auto", "csv", "parquet", "json"]).default("auto"),
  split: z.enum(["dev", "val", "test"]).default("val"),
  subjects: z.union([
    z.literal("all"),
    z.literal("hard"),
    // Subject keys are exact (C-Eval has no aliases), and part of the
    // question ids: each once.
    uniqueList(z.array(z.string()).min(1)).superRefine((keys, ctx) => {
      keys.forEach((key, i) => {
        if (!KNOWN_KEYS.has(key)) {
          ctx.addIssue({
            code: "custom",
            path: [i],
            message:
              `unknown C-Eval subject "${key}"; use one of the 52 keys such as advanced_mathematics, or "all" / "hard"`,
          });
        }
      });
    }),
  ], {
    error:
      'expected "all", "hard" or a list of C-Eval subject keys such as ["advanced_mathematics"]',
  }).default("all"),
  shots: z.int().min(0).max(5).default(5),
  limit: z.int().positive().optional(),
});

// `X.parse`'s return type is `z.infer<typeof X>`; `deno doc --lint` reports
// zod's private `output` type behind `z.infer`, not this spelling.
/** Validated C-Eval params, defaults filled in. */
export type CevalParams = ReturnType<typeof CevalParamsSchema.parse>;

/** The bundled original dataset, `data/ceval` at the repository root. */
export const BUNDLED_CEVAL_ROOT: string = fileURLToPath(
  new URL("../../../data/ceval", import.meta.url),
);

function itemOf(r: CevalRecord): CevalItem {
  return {
    question: r.question,
    choices: r.choices,
    answer: r.answer,
    explanation: r.explanation,
  };
}

/**
 * Turns loaded records into suite questions, attaching each subject's
 * first `shots` dev examples (never the question itself).
 *
 * @param records The questions of one split.
 * @param examples The dev records (any subjects; matched by subject key)
 *   and how many of them to attach (`shots`).
 * @returns The questions, in record order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCeval } from "./load.ts";
 * import { cevalQuestions } from "./suite.ts";
 * const val = await loadCeval("data/ceval", { split: "val", subjects: ["civil_servant"] });
 * const dev = await loadCeval("data/ceval", { split: "dev", subjects: ["civil_servant"] });
 * const qs = cevalQuestions(val, { dev, shots: 3 });
 * assert.equal((qs[0]!.payload as { dev: unknown[] }).dev.length, 3);
 * assert.equal(qs[0]!.id, "ceval/civil_servant/val/0");
 * ```
 */
export function cevalQuestions(
  records: readonly CevalRecord[],
  { dev, shots }: { dev: readonly CevalRecord[]; shots: number },
): CevalQuestion[] {
  return records.map((r) => {
    const examples = dev
      .filter((d) => d.subject.key === r.subject.key && d.answer !== null)
      .filter((d) => !(d.split === r.split && d.id === r.id))
      .slice(0, shots)
      .map(itemOf);
    const payload: CevalPayload = {
      // The key lives in `answer` only, never in what templates render.
      item: { ...itemOf(r), answer: null, explanation: null },
      subjectZh: r.subject.nameZh,
      dev: examples,
    };
    return {
      id: `ceval/${r.subject.key}/${r.split}/${r.id}`,
      suite: "ceval",
      text: formatCevalItem(payload.item),
      answer: { kind: "choice", value: r.answer ?? "" },
      dims: {
        subject: r.subject.key,
        subject_zh: r.subject.nameZh,
        category: r.subject.category,
        level: r.subject.level,
        hard: r.subject.hard,
        split: r.split,
      },
      payload,
    };
  });
}

async function questions(
  { params: p, baseDir, inputs }: RunInfo<CevalParams>,
): Promise<CevalQuestion[]> {
  const root = p.root === undefined
    ? BUNDLED_CEVAL_ROOT
    : isAbsolute(p.root)
    ? p.root
    : join(baseDir, p.root);
  const subjects = p.subjects === "all"
    ? undefined
    : p.subjects === "hard"
    ? cevalHardSubjects()
    : p.subjects;
  const layout = p.layout;
  let records = await loadCeval(root, {
    split: p.split,
    layout,
    inputs,
    ...(subjects === undefined ? {} : {
      subjects: p.subjects === "hard"
        ? await presentHard(root, p.split, layout, subjects)
        : subjects,
    }),
  });
  if (p.limit !== undefined) {
    const seen = new Map<string, number>();
    records = records.filter((r) => {
      const n = (seen.get(r.subject.key) ?? 0) + 1;
      seen.set(r.subject.key, n);
      return n <= p.limit!;
    });
  }
  let dev: CevalRecord[] = [];
  if (p.shots > 0) {
    const keys = [...new Set(records.map((r) => r.subject.key))];
    try {
      dev = await loadCeval(root, {
        split: "dev",
        layout,
        subjects: keys,
        inputs,
      });
    } catch (error) {
      throw new RangeError(
        `Cannot build C-Eval few-shot examples: ${
          (error as Error).message
        }; add the dev split or set "shots": 0`,
      );
    }
  }
  return cevalQuestions(records, { dev, shots: p.shots });
}

/** The HARD subjects the folder actually holds (a partial download is fine). */
async function presentHard(
  root: string,
  split: "dev" | "val" | "test",
  layout: CevalParams["layout"],
  hard: readonly string[],
): Promise<string[]> {
  const all = await loadCeval(root, { split, layout });
  const present = new Set(all.map((r) => r.subject.key));
  const keys = hard.filter((k) => present.has(k));
  if (keys.length === 0) {
    throw new RangeError(
      `Cannot load C-Eval HARD: none of ${
        hard.join(", ")
      } has a ${split} file under ${root}`,
    );
  }
  return keys;
}

// The options' texts too: a reply may answer with one ("答案是光合作用").
const extract = suiteExtract<Question<CevalPayload>>((text, question) =>
  choiceAnswer(text, {
    ...(question.payload === undefined
      ? {}
      : { choices: question.payload.item.choices }),
  })
);

/** The dims C-Eval questions carry. */
export const CEVAL_DIMS: readonly DimSpec[] = [
  { name: "category", kind: "categorical", label: "category" },
  { name: "level", kind: "categorical", label: "education level" },
  { name: "subject", kind: "categorical", label: "subject" },
  {
    name: "subject_zh",
    kind: "categorical",
    label: "subject (Chinese)",
    show: false,
  },
  { name: "hard", kind: "categorical", label: "HARD subset" },
  { name: "split", kind: "categorical", label: "split", show: false },
];

/** The C-Eval suite. */
export const cevalSuite: Suite<CevalPayload> = defineSuite({
  name: "ceval",
  version: "1",
  description:
    "C-Eval Chinese multiple choice (52 subjects, 4 categories, 4 levels, HARD subset) from the official CSV, Hugging Face parquet or JSON layouts; official prompt modes.",
  params: CevalParamsSchema,
  questions,
  templates: CEVAL_TEMPLATES,
  defaultTemplates: ["few_shot"],
  baseline: "few_shot",
  dims: CEVAL_DIMS,
  metrics: CEVAL_METRICS,
  extract: ({ question, completion }) => extract(question, completion),
  score: (judged) => judgeChoice(judged),
  detail: async (row) =>
    (await importLazily<typeof import("./detail.ts")>(
      "./detail.ts",
      import.meta.url,
    )).cevalDetail(row),
  // Imported when a report is made (lazily: see importLazily), so Polars
  // stays out of a sweep's start-up.
  sections: async (frame) =>
    (await importLazily<Sections>("./sections.ts", import.meta.url))
      .cevalSections(frame),
  sim: multipleChoiceSkill,
});
