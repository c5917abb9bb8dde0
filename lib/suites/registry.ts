/**
 * The suite registry: the one list of suites a sweep config can name, each
 * loaded only when asked for. Adding a suite is one folder under
 * `lib/suites/` and one line here. The order is the order the sim tries
 * the suites' skills (more specific prompts first).
 *
 * Loading on demand is what lets a command import only what it needs: a
 * sweep of arithmetic alone does not parse the code suite's JavaScript
 * parser, the C-Eval loaders or the LinAlg-Bench tables (together about
 * 70 ms of its start-up). `lib/suites/mod.ts` loads them all, for
 * notebooks and the library entry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSuites, SUITE_NAMES } from "./registry.ts";
 * const [arithmetic] = await loadSuites(["arithmetic"]);
 * assert.equal(arithmetic?.name, "arithmetic");
 * assert.ok(SUITE_NAMES.includes("linalg"));
 * ```
 *
 * @module
 */
import type { Suite, SuiteList } from "./types.ts";
import { importLazily } from "../lazy.ts";

type Code = typeof import("./code/suite.ts");
type Ceval = typeof import("./ceval/suite.ts");
type Linalg = typeof import("./linalg/suite.ts");
type Arithmetic = typeof import("./arithmetic/suite.ts");
type Qa = typeof import("./qa/suite.ts");

/** Imports a suite module when asked for (see {@linkcode importLazily}). */
function load<T>(path: string): Promise<T> {
  return importLazily<T>(path, import.meta.url);
}

/**
 * Each registered suite's name and how to load its suite object (its
 * `suite.ts` alone: its `mod.ts` also re-exports the analysis code, which
 * loads Polars, and a sweep does not need it).
 */
const LOADERS: readonly (readonly [string, () => Promise<Suite>])[] = [
  ["code", async () => (await load<Code>("./code/suite.ts")).codeSuite],
  ["ceval", async () => (await load<Ceval>("./ceval/suite.ts")).cevalSuite],
  ["linalg", async () => (await load<Linalg>("./linalg/suite.ts")).linalgSuite],
  [
    "arithmetic",
    async () =>
      (await load<Arithmetic>("./arithmetic/suite.ts")).arithmeticSuite,
  ],
  ["qa", async () => (await load<Qa>("./qa/suite.ts")).qaSuite],
];

/** Names of every registered suite, in registry order. */
export const SUITE_NAMES: readonly string[] = LOADERS.map(([name]) => name);

/**
 * Loads registered suites, in registry order (the order the sim tries
 * their skills), whatever order `names` lists them in.
 *
 * @param names The suites wanted; unknown names are ignored (config
 * checking names them). @default every registered suite
 * @returns The suites found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSuites } from "./registry.ts";
 * const suites = await loadSuites(["arithmetic", "code", "nope"]);
 * assert.deepEqual(suites.map((s) => s.name), ["code", "arithmetic"]);
 * ```
 */
export async function loadSuites(names?: Iterable<string>): Promise<SuiteList> {
  const wanted = names === undefined ? null : new Set(names);
  return await Promise.all(
    LOADERS.filter(([name]) => wanted === null || wanted.has(name))
      .map(([, load]) => load()),
  );
}
