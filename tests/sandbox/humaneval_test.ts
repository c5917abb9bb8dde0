import assert from "node:assert/strict";
import {
  createSandbox,
  type HumanEvalOutcome,
  loadHumanEval,
  runHumanEval,
} from "../../lib/sandbox/mod.ts";

const sandbox = createSandbox({ warm: 2 });
globalThis.addEventListener("unload", () => void sandbox.close());
const opts = { sanitizeOps: false, sanitizeResources: false };
const problems = await loadHumanEval();

// Both runs start at once (batched, 4 batches each, a pool of 2); each
// problem is then its own test.
let canonical: Promise<HumanEvalOutcome[]> | undefined;
let empty: Promise<HumanEvalOutcome[]> | undefined;
const runs = () => {
  canonical ??= runHumanEval(problems, (p) => p.canonical_solution, {
    sandbox,
  });
  empty ??= runHumanEval(problems, () => "    pass\n", { sandbox });
  return { canonical, empty };
};

Deno.test("loadHumanEval() reads the 164 problems from the gzipped JSONL", () => {
  assert.equal(problems.length, 164);
  assert.ok(problems.every((p) => p.prompt.includes(`def ${p.entry_point}`)));
  assert.equal(new Set(problems.map((p) => p.task_id)).size, 164);
});

Deno.test("loadHumanEval() rejects a line without the fields with a SyntaxError", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, '{"task_id": "x"}\n');
  await assert.rejects(() => loadHumanEval(path), SyntaxError);
  await Deno.remove(path);
});

for (const [i, p] of problems.entries()) {
  Deno.test(
    `runHumanEval() passes the canonical solution of ${p.task_id}`,
    opts,
    async () => {
      const out = (await runs().canonical)[i]!;
      assert.equal(out.task_id, p.task_id);
      assert.ok(out.passed, out.error);
    },
  );
}

for (const [i, p] of problems.entries()) {
  Deno.test(
    `runHumanEval() fails an empty body for ${p.task_id}`,
    opts,
    async () => {
      const out = (await runs().empty)[i]!;
      assert.equal(out.task_id, p.task_id);
      assert.equal(out.passed, false);
      assert.ok(out.error.length > 0);
    },
  );
}

Deno.test(
  "runHumanEval() guard: an always-equal object fails check() unless the guard is off",
  opts,
  async () => {
    const p = problems[0]!;
    const fake =
      "    class Eq:\n        def __eq__(self, o):\n            return True\n        def __bool__(self):\n            return True\n    return Eq()\n";
    const [guarded] = await runHumanEval([p], [fake], { sandbox });
    assert.equal(guarded!.passed, false);
    assert.match(guarded!.error, /plain data/);
    const [open] = await runHumanEval([p], [fake], { sandbox, guard: false });
    assert.equal(
      open!.passed,
      true,
      "without the guard HumanEval's own check() is fooled",
    );
  },
);

Deno.test(
  "runHumanEval() isolates programs in a batch: a patched builtin does not reach the next",
  opts,
  async () => {
    const p = problems[0]!;
    const patch =
      "    import builtins\n    builtins.abs = lambda x: 0\n    return True\n";
    const out = await runHumanEval([p, p, p], [
      patch,
      p.canonical_solution,
      p.canonical_solution,
    ], {
      sandbox,
    });
    assert.deepEqual(out.map((o) => o.passed), [false, true, true]);
  },
);
