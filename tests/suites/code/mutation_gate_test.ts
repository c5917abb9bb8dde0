/**
 * The test-adequacy gate of the code bank: every problem's tests must kill
 * at least `MUTATION_THRESHOLD` of its reference's mutants, in Python and
 * in JavaScript. Every mutant of the bank runs (the cap,
 * `DEFAULT_MAX_MUTANTS`, is above every problem's count today); the
 * mutants of 12 problems share one sandbox request.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadBank } from "../../../lib/suites/code/bank/mod.ts";
import {
  EQUIVALENT_MUTANTS,
  MUTATION_THRESHOLD,
  type MutationReport,
  mutationScores,
} from "../../../lib/suites/code/mutate/mod.ts";

function describe(r: MutationReport): string {
  const shown = r.survivors.slice(0, 3).map((s) =>
    `    ${s.description}\n${
      s.diff.split("\n").map((l) => `      ${l}`).join("\n")
    }`
  );
  const more = r.survivors.length > 3
    ? [`    … and ${r.survivors.length - 3} more`]
    : [];
  return [
    `  ${r.problem} (${r.language}): ${
      r.score.toFixed(2)
    } (${r.killed} of ${r.mutants} killed); surviving mutants:`,
    ...shown,
    ...more,
  ].join("\n");
}

Deno.test("mutationScores() kills at least MUTATION_THRESHOLD of every problem's mutants in both languages", async () => {
  const bank = await loadBank();
  const reports = await mutationScores({ bank });
  assert.equal(reports.length, 2 * bank.length);
  const below = reports.filter((r) => r.score < MUTATION_THRESHOLD);
  assert.deepEqual(
    below.map((r) => `${r.problem} (${r.language})`),
    [],
    `Problems below the mutation threshold ${MUTATION_THRESHOLD}; add tests that kill these mutants (see data/code/README.md), or list a provably equivalent one in lib/suites/code/mutate/equivalent.ts:\n${
      below.map(describe).join("\n")
    }`,
  );
  // The gate means something: the bank has mutants, and most problems
  // have several.
  for (const language of ["javascript", "python"] as const) {
    const mine = reports.filter((r) => r.language === language);
    const total = mine.reduce((a, r) => a + r.mutants, 0);
    assert.ok(total >= 10 * bank.length, `${language}: only ${total} mutants`);
  }
  // Listed equivalents exist, survive, and are few.
  const listed = reports.flatMap((r) =>
    r.equivalent.map((e) => ({
      ...e,
      problem: r.problem,
      language: r.language,
    }))
  );
  assert.equal(
    listed.length,
    EQUIVALENT_MUTANTS.length,
    `stale entries in EQUIVALENT_MUTANTS (no such mutant): ${
      EQUIVALENT_MUTANTS.filter((e) =>
        !listed.some((l) =>
          l.problem === e.problem && l.language === e.language &&
          l.description === e.mutant
        )
      ).map((e) => `${e.problem} (${e.language}) ${e.mutant}`).join(", ")
    }`,
  );
  const killed = listed.filter((e) => e.killed);
  assert.deepEqual(
    killed.map((e) => `${e.problem} (${e.language}) ${e.description}`),
    [],
    "mutants listed as equivalent were killed by the tests; remove them from EQUIVALENT_MUTANTS",
  );
  const mutants = reports.reduce((a, r) => a + r.mutants, 0);
  assert.ok(
    listed.length <= mutants / 100,
    `${listed.length} listed equivalents for ${mutants} mutants: keep the list short`,
  );
});
