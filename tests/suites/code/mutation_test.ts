/**
 * Mutation testing of the code bank: the scores respond to test strength,
 * and the batch harness tells looping, crashing and wrong mutants apart
 * from right ones. The bank-wide threshold check (`MUTATION_THRESHOLD`,
 * 0.8) is `mutation_gate_test.ts`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadBank } from "../../../lib/suites/code/bank/mod.ts";
import { mutationScores } from "../../../lib/suites/code/mutate/mod.ts";

Deno.test("mutationScores() kills fewer mutants when a problem's tests are weakened", async () => {
  const bank = await loadBank();
  const full = bank.find((p) => p.id === "squares_sorted")!;
  const weak = { ...full, tests: full.tests.slice(0, 1) };
  const [strong] = await mutationScores({
    bank: [full],
    languages: ["javascript"],
  });
  const [weaker] = await mutationScores({
    bank: [weak],
    languages: ["javascript"],
  });
  assert.ok(strong && weaker);
  assert.equal(strong.mutants, weaker.mutants);
  assert.ok(strong.mutants >= 10, `only ${strong.mutants} mutants`);
  assert.ok(
    weaker.killed < strong.killed,
    `weak ${weaker.killed} vs full ${strong.killed}`,
  );
  assert.equal(weaker.survivors.length, weaker.mutants - weaker.killed);
  for (const s of weaker.survivors) {
    assert.match(s.description, /^[a-z_]+ .+ at \d+:\d+$/);
    assert.notEqual(s.code.trim(), "");
  }
});

Deno.test("mutationScores() rejects an unknown problem id", async () => {
  await assert.rejects(
    () => mutationScores({ problems: ["no_such_problem"] }),
    RangeError,
  );
});
