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
 * mutant are dropped; a cap keeps mutants evenly spread over the program.
 *
 * Threshold (`MUTATION_THRESHOLD`, checked by
 * `tests/suites/code/mutation_test.ts`): every problem must kill at least
 * 80 % of its mutants in each language. Some survivors are equivalent
 * mutants (a change no input can observe), so 100 % is not expected.
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
  type MutationLanguage,
  type MutationOptions,
  type MutationReport,
  mutationScores,
  type SurvivingMutant,
} from "./score.ts";

/** The lowest mutation score a problem may have, per language. */
export const MUTATION_THRESHOLD = 0.8;
