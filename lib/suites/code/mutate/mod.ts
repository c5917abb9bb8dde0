/**
 * Test adequacy of the code problem bank, measured by mutation testing:
 * mutants of each reference solution (made by real parsers — acorn and
 * astring for JavaScript, Python's `ast` inside the sandbox for Python) are
 * run against the problem's functional and edge tests, and the share
 * killed is the problem's mutation score.
 *
 * Operators (one change per mutant): `comparison` (`<`↔`<=`, `>`↔`>=`,
 * `==`/`===`↔`!=`/`!==`, Python `is`/`in` too), `off_by_one` (an integer
 * literal that is a bound — in a comparison, a `+`/`-`, a variable's
 * start value, Python `range()` arguments — becomes n+1 or
 * n−1), `arithmetic` (`+`↔`-`, `*`↔`/` (Python `//`), `&`↔`|`, `^`→`|`,
 * `<<`↔`>>`, and their compound assignments; never on string
 * concatenation), `drop_return` (a `return` that is an `if` branch, or in
 * a block that is one, becomes an empty statement), `negate_if`
 * (`if (c)` → `if (!(c))`), `logical` (`&&`↔`||`, `and`↔`or`). Mutants
 * that regenerate to the same code as the reference or as an earlier
 * mutant are dropped; a cap (`DEFAULT_MAX_MUTANTS`, 100 per problem and
 * language) keeps mutants evenly spread over the program.
 *
 * Mutants run in batches: one sandbox request runs the references and
 * mutants of several problems, with a tick guard in every loop and
 * function body so a mutant that loops runs out of its CPU budget inside
 * the child instead of stalling the batch; a request that dies anyway is
 * resumed after the mutant that killed it.
 *
 * Threshold (`MUTATION_THRESHOLD`, checked over the whole bank by
 * `tests/suites/code/mutation_gate_test.ts`): every problem must kill at
 * least 80 % of its mutants in each language. Survivors that no valid
 * input can observe may be listed, with a reason, in
 * `EQUIVALENT_MUTANTS`; they are run but not counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MUTATION_THRESHOLD } from "./mod.ts";
 * assert.equal(MUTATION_THRESHOLD, 0.8);
 * ```
 *
 * @module
 */
export {
  DEFAULT_MAX_MUTANTS,
  DEFAULT_PROBLEMS_PER_REQUEST,
  type ListedEquivalent,
  type MutationLanguage,
  type MutationOptions,
  type MutationReport,
  mutationScores,
  type SurvivingMutant,
} from "./score.ts";
export { EQUIVALENT_MUTANTS, type EquivalentMutant } from "./equivalent.ts";

/** The lowest mutation score a problem may have, per language. */
export const MUTATION_THRESHOLD = 0.8;

// The bank whose adequacy is measured (`MutationOptions.bank` takes its
// problems; `loadBank` reads them).
export * from "../bank/mod.ts";
