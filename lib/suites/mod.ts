/**
 * The suite registry: every suite a sweep config can name.
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
import type { Suite } from "./types.ts";
import { arithmeticSuite } from "./arithmetic.ts";
import { cevalSuite } from "./ceval.ts";
import { linalgSuite } from "./linalg.ts";

export type * from "./types.ts";

const SUITES: ReadonlyMap<string, Suite> = new Map(
  [arithmeticSuite, cevalSuite, linalgSuite].map((
    suite,
  ) => [suite.name, suite]),
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
  const suite = SUITES.get(name);
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
  return [...SUITES.keys()].sort();
}
