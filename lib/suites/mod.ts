/**
 * Every registered suite, loaded (the list and its order live in
 * `registry.ts`, which also loads suites one by one for commands that
 * need only some).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getSuite, listSuites } from "./mod.ts";
 * assert.ok(listSuites().includes("arithmetic"));
 * assert.equal(getSuite("arithmetic").name, "arithmetic");
 * ```
 *
 * @module
 */
import type { RegisteredSkill } from "../providers/sim/mod.ts";
import type { Suite, SuiteList } from "./types.ts";
import { loadSuites } from "./registry.ts";

export type * from "./types.ts";
export * from "./define.ts";
export type { ParamsSchema } from "./params.ts";
export type { AdaptivePlace } from "../adaptive/pools.ts";
export { loadSuites, SUITE_NAMES } from "./registry.ts";

/** Every registered suite, in the order their sim skills are tried. */
export const SUITES: SuiteList = await loadSuites();

/** The sim skills of every registered suite, in registry order. */
export const SIM_SKILLS: readonly RegisteredSkill[] = SUITES.flatMap((s) =>
  s.simSkills ?? []
);

/**
 * Looks a suite up by name.
 *
 * @param name The suite name used in configs (e.g. `"arithmetic"`).
 * @returns The suite.
 * @throws {RangeError} for an unknown name, listing the known ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getSuite } from "./mod.ts";
 * assert.throws(() => getSuite("nope"), RangeError);
 * ```
 */
export function getSuite(name: string): Suite {
  const suite = SUITES.find((s) => s.name === name);
  if (suite === undefined) {
    throw new RangeError(
      `Cannot find suite "${name}": known suites are ${
        listSuites().join(", ")
      }`,
    );
  }
  return suite;
}

/**
 * Names of all registered suites, sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listSuites } from "./mod.ts";
 * assert.deepEqual(listSuites(), [...listSuites()].sort());
 * ```
 */
export function listSuites(): string[] {
  return SUITES.map((s) => s.name).sort();
}
