/**
 * The bare-arithmetic suite: freshly generated questions with exact
 * answers, tolerant number extraction, a numeric judge with error
 * forensics, prompt variants and a calculator control group.
 *
 * Params (all optional) in a sweep config:
 *
 * ```json
 * {
 *   "name": "arithmetic",
 *   "params": {
 *     "families": ["add", "sub", "mul", "div", "decimal", "fraction", "percent", "expr", "word"],
 *     "digits": [2, 4, 8],
 *     "mulDigits": [[3, 3], [5, 2]],
 *     "carries": 2,
 *     "ops": [2, 3],
 *     "division": ["exact", "decimal"],
 *     "precision": 2,
 *     "count": 20,
 *     "language": "both",
 *     "tolerance": { "rel": 0, "abs": 0 }
 *   },
 *   "templates": ["direct", "cot", "calculator"]
 * }
 * ```
 *
 * - `digits` sets each family's level: operand digits for add/sub (1–20),
 *   d×d for mul (unless `mulDigits` lists pairs), quotient digits for exact
 *   division and dividend digits for decimal division, significant digits for
 *   decimals, denominator digits (max 3) for fractions, base digits for
 *   percentages, operand digits for compound expressions (`ops` operations
 *   each), amount digits for word problems.
 * - `carries` asks for exactly that many carries (add) or borrows (sub).
 * - `count` questions per (family, level); `language` `"both"` gives an
 *   English and a Chinese version of each item, with the same numbers.
 * - `preset: "llmmath"` replaces generation by the seven sanand0/llmmath
 *   items (use template `llmmath` and `samples: 5`); `dataset` loads a
 *   frozen JSONL set instead (path relative to the config file).
 * - `tolerance` applies to every question (default: exact for integer
 *   answers, relative 1e-9 otherwise).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arithmeticSuite } from "./suite.ts";
 * const qs = await arithmeticSuite.questions({ seed: 1, params: { families: ["add"], digits: [3], count: 1 }, baseDir: "." });
 * assert.match(qs[0]!.text, /^What is \d{3} \+ \d{3}\?$/);
 * assert.equal(arithmeticSuite.validateParams({ digits: [0] }).ok, false);
 * ```
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { numberExtract } from "../../extract/suite_extract.ts";
import {
  ARITHMETIC_FAMILIES,
  generateArithmetic,
} from "./generate/questions.ts";
import { loadFrozen } from "./generate/frozen.ts";
import { llmmathQuestions } from "./llmmath/questions.ts";
import {
  type ArithmeticPayload,
  type ArithmeticQuestion,
  judgeNumeric,
} from "./score.ts";
import { ARITHMETIC_TEMPLATES } from "./templates.ts";
import type { Question } from "../../types.ts";
import type { Suite } from "../types.ts";
import { defineSuite, type RunInfo } from "../define.ts";
import type { DimSpec } from "../../types.ts";
import type { AdaptivePlace } from "../../adaptive/pools.ts";
import { arithmeticSkill } from "./sim/skill.ts";
import { uniqueList } from "../../config/unique.ts";
import { importLazily } from "../../lazy.ts";
import { ACCURACY, FORMAT_VALID_RATE } from "../../judge/metric.ts";

type Calculator = typeof import("./calculator.ts");
type Sections = typeof import("./report/sections.ts");

const digitCount = z.int().min(1).max(20);

/**
 * The arithmetic suite's params (zod).
 *
 * @internal
 */
export const ArithmeticParamsSchema = z.strictObject({
  // Every list is part of the question ids (row keys): each entry once.
  families: uniqueList(z.array(z.enum(ARITHMETIC_FAMILIES)).min(1)).default([
    "add",
    "sub",
  ]),
  digits: uniqueList(z.array(digitCount).min(1)).default([2, 4, 8]),
  /** `[a, b]` pairs; `[3, 4]` and `[4, 3]` are two levels. */
  mulDigits: uniqueList(z.array(z.tuple([digitCount, digitCount])).min(1))
    .optional(),
  carries: z.int().min(0).max(20).optional(),
  ops: uniqueList(z.array(z.int().min(1).max(8)).min(1)).default([2, 3, 4, 5]),
  division: uniqueList(z.array(z.enum(["exact", "decimal"])).min(1)).default([
    "exact",
    "decimal",
  ]),
  precision: z.int().min(0).max(10).default(2),
  count: z.int().positive().max(100_000).default(20),
  language: z.enum(["en", "zh", "both"]).default("en"),
  preset: z.literal("llmmath").optional(),
  dataset: z.string().min(1).optional(),
  tolerance: z.strictObject({
    rel: z.number().nonnegative().optional(),
    abs: z.number().nonnegative().optional(),
  }).optional(),
}).refine((p) => p.preset === undefined || p.dataset === undefined, {
  message: "give either preset or dataset, not both",
  path: ["dataset"],
});

// `X.parse`'s return type is `z.infer<typeof X>`; `deno doc --lint` reports
// zod's private `output` type behind `z.infer`, not this spelling.
/** Validated arithmetic params, defaults filled in. */
export type ArithmeticParams = ReturnType<typeof ArithmeticParamsSchema.parse>;

/**
 * Most questions one arithmetic entry may generate. Questions are held in
 * memory for the sweep (about 1 KB each), so a valid config at every
 * maximum (tens of millions) is refused up front instead of running the
 * process out of memory.
 */
export const MAX_ARITHMETIC_QUESTIONS = 200_000;

/** An upper bound of the questions these params generate. */
function plannedQuestions(p: ArithmeticParams): number {
  const languages = p.language === "both" ? 2 : 1;
  return p.families.reduce((n, family) => {
    const levels = family === "mul" && p.mulDigits !== undefined
      ? p.mulDigits.length
      : family === "expr"
      ? p.digits.length * p.ops.length
      : family === "div"
      ? p.digits.length * p.division.length
      : p.digits.length;
    return n + levels * p.count * languages;
  }, 0);
}

async function questions(
  { params: p, seed, baseDir, inputs }: RunInfo<ArithmeticParams>,
): Promise<ArithmeticQuestion[]> {
  let out: Question[];
  if (p.preset === "llmmath") out = llmmathQuestions();
  else if (p.dataset !== undefined) {
    const path = isAbsolute(p.dataset) ? p.dataset : join(baseDir, p.dataset);
    out = await loadFrozen(path, inputs);
  } else {
    const planned = plannedQuestions(p);
    if (planned > MAX_ARITHMETIC_QUESTIONS) {
      throw new RangeError(
        `Cannot generate ${
          planned.toLocaleString("en")
        } arithmetic questions (families × levels × count × languages); one suite entry may have at most ${
          MAX_ARITHMETIC_QUESTIONS.toLocaleString("en")
        }: lower "count", "digits" or "families", or split the sweep`,
      );
    }
    out = generateArithmetic({
      seed,
      families: p.families,
      digits: p.digits,
      ops: p.ops,
      division: p.division,
      precision: p.precision,
      count: p.count,
      language: p.language,
      ...(p.carries === undefined ? {} : { carries: p.carries }),
      ...(p.mulDigits === undefined ? {} : { mulDigits: p.mulDigits }),
    });
  }
  if (p.tolerance === undefined) return out;
  const tolerance = p.tolerance;
  return out.map((q) => ({ ...q, payload: { ...q.payload, tolerance } }));
}

/** The dims arithmetic questions carry. */
export const ARITHMETIC_DIMS: readonly DimSpec[] = [
  { name: "family", kind: "categorical", label: "family" },
  { name: "digits", kind: "numeric", label: "operand digits" },
  { name: "level", kind: "categorical", label: "level", show: false },
  { name: "language", kind: "categorical", label: "language" },
  { name: "carries", kind: "numeric", label: "carries or borrows" },
  { name: "ops", kind: "numeric", label: "operations" },
  { name: "variant", kind: "categorical", label: "variant", show: false },
  { name: "digits_a", kind: "numeric", label: "digits of a", show: false },
  { name: "digits_b", kind: "numeric", label: "digits of b", show: false },
  { name: "precision", kind: "numeric", label: "decimal places", show: false },
  {
    name: "parentheses",
    kind: "categorical",
    label: "parentheses",
    show: false,
  },
  { name: "preset", kind: "categorical", label: "preset", show: false },
  { name: "item", kind: "numeric", label: "llmmath item", show: false },
];

/**
 * Where a question sits along its digit count, for adaptive sweeps: its
 * group is the family with what else its level fixes (`div/e` exact
 * division, `div/p2` two decimal places, `expr/o3` three operations,
 * `add/c2` two carries); multiplication of unequal operands
 * (`mulDigits`) and questions without a digit count (presets) sit
 * nowhere.
 */
function digitsPlace(q: Question): AdaptivePlace | null {
  const { family, level, digits } = q.dims;
  if (typeof family !== "string" || typeof digits !== "number") return null;
  const key = typeof level === "string" ? level : "";
  if (family === "mul") {
    return /^d(\d+)x\1$/.test(key) ? { group: "mul", size: digits } : null;
  }
  const rest = key.replace(/^d\d+/, "");
  return { group: rest === "" ? family : `${family}/${rest}`, size: digits };
}

/** The bare-arithmetic suite. */
export const arithmeticSuite: Suite<ArithmeticPayload> = defineSuite({
  name: "arithmetic",
  version: "1",
  description:
    "Bare arithmetic without tools: integer, decimal, fraction, percentage, compound and word problems, exact answers, error forensics.",
  params: ArithmeticParamsSchema,
  questions,
  templates: ARITHMETIC_TEMPLATES,
  defaultTemplates: ["direct"],
  baseline: "direct",
  dims: ARITHMETIC_DIMS,
  // Headline: accuracy (Wilson 95%) and the share of replies in the
  // instructed format (just the number, or a final answer line).
  metrics: [ACCURACY, FORMAT_VALID_RATE],
  // Imported at the first tool call (lazily: see importLazily): the
  // calculator parses with mathjs, which a sweep without tools need not load.
  executeTool: async (name, args) =>
    (await importLazily<Calculator>("./calculator.ts", import.meta.url))
      .executeArithmeticTool(name, args),
  extract: (reply) => numberExtract(reply),
  score: (judged) => judgeNumeric(judged),
  detail: async (row) =>
    (await importLazily<typeof import("./detail.ts")>(
      "./detail.ts",
      import.meta.url,
    )).arithmeticDetail(row),
  // Imported when a report is made (lazily: see importLazily), so Polars
  // stays out of a sweep's start-up.
  sections: async (frame) =>
    (await importLazily<Sections>("./report/sections.ts", import.meta.url))
      .arithmeticSections(frame),
  sim: arithmeticSkill,
  adaptive: { digits: digitsPlace },
});
