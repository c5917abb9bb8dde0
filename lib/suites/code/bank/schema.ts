/**
 * The shape of a problem's `problem.json`, as a zod schema, and the names
 * the format allows (topics, difficulties, complexity classes).
 *
 * @module
 */
import { z } from "zod";

/** The 16 topics of the bank, in the order the issue lists them. */
export const TOPICS = [
  "arrays_hashing",
  "two_pointers",
  "sliding_window",
  "stack_queue",
  "binary_search",
  "sorting",
  "heaps",
  "intervals",
  "strings",
  "dynamic_programming",
  "graphs",
  "union_find",
  "trees",
  "greedy",
  "math",
  "bit_manipulation",
] as const;

/** A problem's topic. */
export type Topic = typeof TOPICS[number];

/** The difficulty levels, easiest first. */
export const DIFFICULTIES = ["easy", "medium", "hard"] as const;

/** A problem's difficulty. */
export type Difficulty = typeof DIFFICULTIES[number];

/** The time-complexity classes a problem may require, fastest first. */
export const COMPLEXITY_CLASSES = [
  "O(1)",
  "O(log n)",
  "O(n)",
  "O(n log n)",
  "O(n^2)",
  "O(n^3)",
  "O(2^n)",
] as const;

/** A time-complexity class, in terms of the `n` that `large(n, rng)` receives. */
export type ComplexityClass = typeof COMPLEXITY_CLASSES[number];

const snakeId = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const jsIdent = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const pyIdent = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * How a candidate's output is compared with the reference's (zod).
 * (zod's types are not part of the documented API; use the type below.)
 *
 * @internal
 */
export const CompareRuleSchema = z.union([
  z.literal("exact"),
  z.literal("unordered"),
  z.literal("checker"),
  z.strictObject({ float: z.number().positive().max(1) }),
], {
  error:
    'expected "exact", "unordered", "checker" or { "float": <tolerance> } such as { "float": 1e-6 }',
});

// The types below are `z.infer<typeof X>` spelled as the return type of
// `X.parse` (the same type): `deno doc --lint` follows `z.infer` into zod's
// private `output` type and reports it, but not this.
/** How a candidate's output is compared with the reference's. */
export type CompareRule = ReturnType<typeof CompareRuleSchema.parse>;

/**
 * One test: an argument list (JSON), its kind and an optional note (zod).
 * (zod's types are not part of the documented API; use the type below.)
 *
 * @internal
 */
export const CodeTestSchema = z.strictObject({
  args: z.array(z.unknown()),
  kind: z.enum(["functional", "edge"]),
  note: z.string().min(1).optional(),
});

/** One test: an argument list (JSON), its kind and an optional note. */
export type CodeTest = ReturnType<typeof CodeTestSchema.parse>;

const nonEmpty = z.string().trim().min(1);

/**
 * The schema of `problem.json` (see `data/code/README.md`).
 * (zod's types are not part of the documented API; use the type below.)
 *
 * @internal
 */
export const ProblemFileSchema = z.strictObject({
  id: z.string().regex(snakeId, {
    error: "expected a snake_case id such as pair_with_sum",
  }),
  title: nonEmpty,
  topic: z.enum(TOPICS),
  difficulty: z.enum(DIFFICULTIES),
  complexity: z.enum(COMPLEXITY_CLASSES),
  /**
   * The class the reference shows on the large inputs when it is better
   * than the required `complexity` (e.g. union–find with path compression
   * on random links: linear, where O(n log n) is required and is its worst
   * case). @default complexity
   */
  reference_complexity: z.enum(COMPLEXITY_CLASSES).optional(),
  naive_complexity: z.enum(COMPLEXITY_CLASSES),
  entry: z.strictObject({
    python: z.string().regex(pyIdent, {
      error: "expected a Python identifier",
    }),
    javascript: z.string().regex(jsIdent, {
      error: "expected a JavaScript identifier",
    }),
  }),
  signature: z.strictObject({
    python: nonEmpty,
    javascript: nonEmpty,
    typescript: nonEmpty,
  }),
  statement: z.strictObject({
    en: nonEmpty,
    zh: nonEmpty.regex(/[\u4e00-\u9fff]/, {
      error: "expected a Simplified Chinese statement",
    }),
  }),
  compare: CompareRuleSchema,
  tests: z.array(CodeTestSchema),
  large: z.strictObject({
    sizes: z.array(z.int().positive()).min(5).max(7),
    timeLimitMs: z.int().positive().default(2000),
  }),
});

/** A parsed `problem.json`, defaults filled in. */
export type ProblemFile = ReturnType<typeof ProblemFileSchema.parse>;
