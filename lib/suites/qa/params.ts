/**
 * The params of the question-and-answer suite: the user's own dataset, the
 * columns that hold the question, the answer and (for multiple choice) the
 * options, and the answer type.
 *
 * @module
 */
import { z } from "zod";
import { zodParams } from "../params.ts";
import type { ParamsCheck } from "../types.ts";

/** The answer types the suite judges. */
export const QA_ANSWER_TYPES = ["number", "choice", "exact", "regex"] as const;

/** An answer type: a number (exact, decimals and fractions as written), an option letter, a string, or a pattern. */
export type QaAnswerType = (typeof QA_ANSWER_TYPES)[number];

/**
 * The suite's params (zod).
 *
 * @internal
 */
export const QaParamsSchema = z.strictObject({
  /** The file of questions: CSV, JSONL, JSON (a list of records) or parquet; relative to the config. */
  dataset: z.string().min(1),
  /** The file's format. @default its extension's */
  format: z.enum(["csv", "jsonl", "json", "parquet"]).optional(),
  /** Which columns hold what; every other column becomes a dim. */
  columns: z.strictObject({
    /** A row id column. @default "id" when the file has one, else the line number */
    id: z.string().min(1).optional(),
    question: z.string().min(1).default("question"),
    answer: z.string().min(1).default("answer"),
    /**
     * Multiple choice: one column per option, in order (`["A","B","C","D"]`),
     * or one column holding a JSON list of the options.
     */
    choices: z.union([z.string().min(1), z.array(z.string().min(1)).min(2)])
      .optional(),
  }).default({ question: "question", answer: "answer" }),
  /**
   * How answers are judged. @default "choice" with `columns.choices`; else
   * "number" when every answer is a number as written; else "exact"
   */
  answer: z.enum(QA_ANSWER_TYPES).optional(),
  /** For numbers: a tolerance (none: exact as written). */
  tolerance: z.strictObject({
    rel: z.number().nonnegative().optional(),
    abs: z.number().nonnegative().optional(),
  }).optional(),
  /** For "exact": compare case (and width) as written. @default false */
  caseSensitive: z.boolean().default(false),
});

/** Validated params of the qa suite, defaults filled in. */
export type QaParams = ReturnType<typeof QaParamsSchema.parse>;

const PARAMS = zodParams("qa", QaParamsSchema);

/**
 * Checks the qa suite's params, every issue with its path (for config errors).
 *
 * @param params The params from the config.
 * @returns `{ ok: true }`, or the issues.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateQaParams } from "./params.ts";
 * assert.deepEqual(validateQaParams({ dataset: "q.csv" }), { ok: true });
 * assert.equal(validateQaParams({}).ok, false);
 * ```
 */
export const validateQaParams: (params: unknown) => ParamsCheck =
  PARAMS.validate;

/**
 * The qa suite's params with their defaults.
 *
 * @param params The params from the config.
 * @returns The parsed params.
 * @throws {TypeError} for params that do not validate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQaParams } from "./params.ts";
 * assert.equal(parseQaParams({ dataset: "q.csv" }).columns.question, "question");
 * ```
 */
export const parseQaParams: (params: unknown) => QaParams = PARAMS.parse;
