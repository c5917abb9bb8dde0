/**
 * The algorithm-code suite's params.
 *
 * @module
 */
import { z } from "zod";
import { zodParams } from "../params.ts";
import { uniqueList } from "../../config/unique.ts";
import type { Suite } from "../types.ts";
import { DIFFICULTIES, TOPICS } from "./bank/mod.ts";
import { memoryFloorMb } from "../../sandbox/memory_floor.ts";

/** The languages candidates are asked to write. */
export const CODE_LANGUAGES = ["python", "javascript"] as const;

/** A language candidates are asked to write. */
export type CodeLanguage = typeof CODE_LANGUAGES[number];

/**
 * The code suite's params (zod).
 * (zod's types are not part of the documented API; use
 * {@linkcode CodeParams}.)
 *
 * @internal
 */
export const CodeParamsSchema = z.strictObject({
  /** `bank`: the project's problems (`data/code`); `humaneval`: OpenAI's HumanEval (Python). */
  source: z.enum(["bank", "humaneval"]).default("bank"),
  /** A bank folder, relative to the config file; default the shipped bank. */
  dataset: z.string().min(1).optional(),
  // The lists select questions (row keys): each entry once.
  languages: uniqueList(z.array(z.enum(CODE_LANGUAGES)).min(1)).default([
    "python",
    "javascript",
  ]),
  topics: uniqueList(z.array(z.enum(TOPICS)).min(1)).optional(),
  difficulties: uniqueList(z.array(z.enum(DIFFICULTIES)).min(1)).optional(),
  /** The first N problems (after the filters), or these problem ids, each once. */
  problems: z.union([
    z.int().positive().max(10_000),
    uniqueList(z.array(z.string().min(1)).min(1)),
  ]).optional(),
  /** Measure the time complexity of functionally correct code. */
  complexity: z.boolean().default(true),
  /** Measure code quality (lines, cyclomatic complexity, nesting, lint). */
  quality: z.boolean().default(true),
  /** Wall time for one candidate's tests. */
  timeoutMs: z.int().positive().max(600_000).default(10_000),
  /** Memory for one candidate. */
  memoryMb: z.int().min(16).max(4096).default(256),
  /** Seed of the large-input generator. @default the sweep seed */
  inputSeed: z.int().optional(),
  /**
   * Where Python candidates run: `native` (Debian's CPython in a
   * bubblewrap sandbox; the sweep refuses to start without it), `pyodide`
   * (CPython in WebAssembly in a Deno child), `auto` (native where
   * bubblewrap and python3 exist and its isolation self-test passes).
   */
  python: z.enum(["auto", "native", "pyodide"]).default("auto"),
  /** Candidates judged at once (sandbox processes). @default the machine's cores */
  concurrency: z.int().min(1).max(64).optional(),
}).superRefine((p, ctx) => {
  // Below this a sandbox worker cannot start (lib/sandbox/memory_floor.ts).
  const floor = Math.max(
    ...p.languages.map((l) => memoryFloorMb(l, p.python)),
  );
  if (p.memoryMb < floor) {
    ctx.addIssue({
      code: "custom",
      path: ["memoryMb"],
      message: `${p.memoryMb} is below the ${floor} MiB a sandbox worker for ${
        p.languages.join(" and ")
      } (python "${p.python}") needs to start; give "memoryMb": ${floor} or more`,
    });
  }
}).refine((p) => p.source === "bank" || p.dataset === undefined, {
  message: 'dataset applies only to source "bank"',
  path: ["dataset"],
}).refine(
  (p) => p.source === "bank" || p.languages.every((l) => l === "python"),
  {
    message: 'HumanEval is Python only: use "languages": ["python"]',
    path: ["languages"],
  },
);

// `X.parse`'s return type is `z.infer<typeof X>`; `deno doc --lint` reports
// zod's private `output` type behind `z.infer`, not this spelling.
/** Validated code-suite params, defaults filled in. */
export type CodeParams = ReturnType<typeof CodeParamsSchema.parse>;

/**
 * Validation and parsing of the code suite's params: `validate` lists every
 * issue with its path, `parse` fills in defaults or throws a `TypeError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CODE_PARAMS } from "./params.ts";
 * assert.deepEqual(CODE_PARAMS.parse({}).languages, ["python", "javascript"]);
 * assert.equal(CODE_PARAMS.validate({ source: "humaneval", languages: ["javascript"] }).ok, false);
 * assert.throws(() => CODE_PARAMS.parse({ timeoutMs: 0 }), TypeError);
 * assert.throws(() => CODE_PARAMS.parse({ python: "pyodide", memoryMb: 20 }), /memoryMb.*below the 24 MiB/);
 * ```
 */
export const CODE_PARAMS: {
  validate: Suite["validateParams"];
  parse: (params: unknown) => CodeParams;
} = zodParams("code", CodeParamsSchema);
