/**
 * Judging bank candidates: one request for tests and the large input, the
 * large input's own time limit, the verdict cache (in a run, across runs,
 * off without the sweep's cache) and what the manifest records about the
 * sandbox.
 */
import assert from "node:assert/strict";
import { parseConfig, runSweep } from "../../../lib/mod.ts";
import { createSandbox } from "../../../lib/sandbox/mod.ts";
import { judgeBank } from "../../../lib/suites/code/judge.ts";
import { expectedOutputs, loadBank } from "../../../lib/suites/code/mod.ts";
import type { ResultRow } from "../../../lib/types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function rowsOf(runDir: string): Promise<ResultRow[]> {
  return (await Deno.readTextFile(`${runDir}/results.jsonl`)).trim()
    .split("\n").map((l) => JSON.parse(l));
}

/** squares_sorted judged in Python on a fresh sandbox (complexity off). */
async function squaresSortedJudging() {
  const problem = (await loadBank()).find((p) => p.id === "squares_sorted")!;
  const sandbox = createSandbox({ warm: 0 });
  const expected = await expectedOutputs(problem, sandbox);
  const judging = {
    sandbox,
    problem,
    language: "python" as const,
    expected,
    inputSeed: 1,
    timeoutMs: 10_000,
    memoryMb: 256,
    complexity: false,
  };
  return { problem, sandbox, judging };
}

Deno.test(
  "judgeBank() passes the tests but fails the large input of a candidate over the time limit, saying so",
  opts,
  async () => {
    const { problem, sandbox, judging } = await squaresSortedJudging();
    // Correct, but burns CPU time well past the 2 s limit on big inputs.
    const code = "import time\n" +
      "def squares_sorted(nums):\n" +
      "    if len(nums) > 10000:\n" +
      "        t = time.process_time()\n" +
      "        while time.process_time() - t < 2.6:\n" +
      "            pass\n" +
      "    return sorted(x * x for x in nums)\n";
    const j = await judgeBank(code, "squares_sorted", judging);
    const fast = await judgeBank(
      problem.reference.python,
      "squares_sorted",
      judging,
    );
    // never answers on big inputs: the request runs out of time on it
    const stuck = await judgeBank(
      code.replace("< 2.6", "< 1e9"),
      "squares_sorted",
      judging,
    );
    await sandbox.close();
    assert.equal(stuck.status, "correct", stuck.explanation);
    assert.equal(stuck.metrics.large_pass, false);
    assert.equal(stuck.metrics.large_ms, null);
    assert.match(stuck.explanation, /large input too slow \(no answer within/);
    assert.equal(j.status, "correct", j.explanation);
    assert.equal(j.metrics.large_pass, false);
    // measured past the limit, or (on a loaded machine) no answer at all
    // within the large input's own time limit
    const ms = j.metrics.large_ms;
    assert.ok(ms === null || Number(ms) > problem.large.timeLimitMs, `${ms}`);
    assert.match(j.explanation, /large input too slow/);
    assert.equal(j.metrics.perf_ratio, null);
    assert.equal(fast.metrics.large_pass, true);
    const ratio = Number(fast.metrics.perf_ratio);
    assert.ok(ratio > 0 && ratio <= 1, `perf ratio ${ratio}`);
    assert.equal(typeof fast.metrics.time_tests_ms, "number");
  },
);

function codeConfig(out: string, cache: boolean) {
  return parseConfig({
    outputDir: out,
    cache,
    samples: 3,
    temperature: 0,
    models: [{ name: "sim-strong", provider: "sim" }],
    suites: [{
      name: "code",
      params: {
        problems: ["balanced_brackets", "squares_sorted"],
        languages: ["python", "javascript"],
        quality: false,
      },
    }],
  }, "verdict-cache-test");
}

Deno.test(
  "a code sweep judges an identical program once with its cache, every time without it, and records the sandbox in the manifest",
  opts,
  async () => {
    const out = await Deno.makeTempDir();
    try {
      // temperature 0: the sim writes the same program for every sample
      const first = await runSweep(codeConfig(out, true), { progress: "none" });
      const rows = await rowsOf(first.runDir);
      assert.equal(rows.length, 12);
      const byQuestion = Map.groupBy(rows, (r) => r.question_id);
      let same = 0;
      for (const [id, group] of byQuestion) {
        const judged = group.filter((r) => r.metrics["judge_cached"] === false);
        const reused = group.filter((r) => r.metrics["judge_cached"] === true);
        if (group.every((r) => r.extracted === group[0]!.extracted)) {
          same++;
          assert.equal(judged.length, 1, `${id}: judged once`);
          assert.equal(reused.length, 2, `${id}: two verdicts reused`);
          for (const r of reused) {
            assert.equal(r.status, judged[0]!.status);
            assert.equal(r.metrics["time_tests_ms"], null);
          }
        }
      }
      assert.ok(same >= 2, `${same} questions got one program three times`);
      const manifest = JSON.parse(
        await Deno.readTextFile(`${first.runDir}/manifest.json`),
      );
      const judging = manifest.sessions[0].judging.code;
      assert.match(judging.javascript, /^deno: /);
      assert.match(judging.python, /^(native|pyodide): /);
      const backends = new Set(
        rows.filter((r) => r.dims["language"] === "python")
          .map((r) => r.metrics["sandbox_backend"]),
      );
      assert.deepEqual(
        [...backends].filter((b) => b !== null),
        [judging.python.split(":")[0]],
      );

      // A second run with the same cache folder: every verdict is stored.
      const second = await runSweep(codeConfig(out, true), {
        progress: "none",
      });
      const again = await rowsOf(second.runDir);
      assert.ok(
        again.filter((r) => r.metrics["judge_cached"] !== null)
          .every((r) => r.metrics["judge_cached"] === true),
      );

      // Without the cache, every sample is judged on its own.
      const off = await runSweep(codeConfig(out, false), { progress: "none" });
      const fresh = await rowsOf(off.runDir);
      assert.ok(
        fresh.filter((r) => r.metrics["judge_cached"] !== null)
          .every((r) => r.metrics["judge_cached"] === false),
      );
      assert.ok(fresh.some((r) => r.metrics["judge_cached"] === false));
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
);

Deno.test(
  "judgeBank() keeps the first failing tests' returned values or errors and the candidate's stderr, for the report's viewer",
  opts,
  async () => {
    const { problem, sandbox, judging } = await squaresSortedJudging();
    // Wrong on every test (unsorted), noisy on stderr, and failing outright
    // on an empty list.
    const code = "import sys\n" +
      "def squares_sorted(nums):\n" +
      "    print('checking', len(nums), file=sys.stderr)\n" +
      "    if not nums:\n" +
      "        raise ValueError('empty')\n" +
      "    return [x * x for x in nums][::-1] + [-1]\n";
    const wrong = await judgeBank(code, "squares_sorted", judging);
    const right = await judgeBank(
      problem.reference.python,
      "squares_sorted",
      judging,
    );
    await sandbox.close();
    assert.equal(wrong.status, "wrong");
    const failing = JSON.parse(String(wrong.metrics["failing_tests"])) as {
      test: number;
      returned?: string;
      error?: string;
    }[];
    assert.ok(failing.length >= 1 && failing.length <= 5);
    for (const f of failing) {
      const args = problem.tests[f.test]!.args[0] as number[];
      if (args.length === 0) assert.match(f.error!, /empty/);
      else {
        assert.deepEqual(
          JSON.parse(f.returned!),
          [...args.map((x) => x * x)].reverse().concat([-1]),
        );
      }
    }
    assert.match(String(wrong.metrics["sandbox_stderr"]), /checking \d+/);
    assert.equal(right.status, "correct");
    assert.equal(right.metrics["failing_tests"], null);
    assert.equal(right.metrics["sandbox_stderr"], null);
  },
);
