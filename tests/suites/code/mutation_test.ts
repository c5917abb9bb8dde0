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
import { createSandbox } from "../../../lib/sandbox/mod.ts";

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

/** A bank problem with its reference and tests swapped for small ones. */
async function synthetic(
  reference: { python: string; javascript: string },
  tests: unknown[][],
) {
  const [base] = await loadBank();
  return {
    ...base!,
    id: "synthetic",
    entry: { python: "f", javascript: "f" },
    reference,
    compare: "exact" as const,
    tests: tests.map((args) => ({ args, kind: "functional" as const })),
  };
}

Deno.test("mutationScores() kills a mutant that loops forever by its CPU budget, inside the same batch", async () => {
  const p = await synthetic({
    javascript:
      "function f(n) {\n  let i = 0;\n  while (i < n) i += 1;\n  return i;\n}\n",
    python:
      "def f(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\n",
  }, [[0], [3], [5]]);
  const sandbox = createSandbox({ warm: 0 });
  const reports = await mutationScores({ bank: [p], timeoutMs: 500, sandbox })
    .finally(() => sandbox.close());
  assert.equal(reports.length, 2);
  for (const r of reports) {
    // `i -= 1` and `i += 0` never end; they are killed, and no request died.
    assert.equal(r.requests, 1, `${r.language}: ${r.requests} requests`);
    assert.ok(
      !r.survivors.some((s) =>
        /\+= → -=|\+= 1 → 0|1 → 0 at 4/.test(s.description)
      ),
      `${r.language}: a looping mutant survived: ${
        r.survivors.map((s) => s.description).join("; ")
      }`,
    );
    assert.ok(r.killed >= 3, `${r.language}: only ${r.killed} killed`);
  }
});

Deno.test("mutationScores() resumes a batch after a mutant that ends the sandbox process", async () => {
  const p = await synthetic({
    javascript: "function f(n) {\n  if (n < 0) Deno.exit(3);\n  return n;\n}\n",
    python: "def f(n):\n    return n\n",
  }, [[0], [1], [2]]);
  const [r] = await mutationScores({ bank: [p], languages: ["javascript"] });
  assert.ok(r);
  // `n <= 0`, `n < 1` and the negated `if` exit the process on a test:
  // each is killed and the batch runs again without it.
  assert.equal(r.requests, 4);
  assert.deepEqual(r.survivors.map((s) => s.description), [
    "off_by_one 0 → -1 at 2:11",
  ]);
  assert.equal(
    r.survivors[0]!.diff,
    "- if (n < 0) Deno.exit(3);\n+ if (n < -1) Deno.exit(3);",
  );
  assert.equal(r.killed, 3);
});
