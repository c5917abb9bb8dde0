import assert from "node:assert/strict";
import { createSandbox } from "../../lib/sandbox/mod.ts";
import { REFERENCE_LANGUAGES, REFERENCES } from "./references.ts";

const sandbox = createSandbox({ warm: 1 });
globalThis.addEventListener("unload", () => void sandbox.close());
const opts = { sanitizeOps: false, sanitizeResources: false };
const TIMES = 3;
const LINEARISH = new Set(["O(n)", "O(n log n)"]);
// A JavaScript O(1) or O(log n) call takes 15-30 ns at every size measured:
// the log factor (3 to 14 steps) is below the timer's noise on a loaded
// machine, so the test accepts either sub-linear class for the other, as it
// does O(n) for O(n log n). The benchmark reports the exact-class rate.
const SUBLINEAR = new Set(["O(1)", "O(log n)"]);

for (const language of REFERENCE_LANGUAGES) {
  for (const ref of REFERENCES) {
    Deno.test(
      `measureComplexity() recovers ${ref.class} in ${language}, ${TIMES} times`,
      opts,
      async () => {
        const misses: string[] = [];
        for (let i = 0; i < TIMES; i++) {
          const r = await sandbox.measureComplexity({
            language,
            code: ref.code[language as "python" | "javascript"],
            entry: ref.entry,
            input: ref.input,
          });
          assert.equal(r.status, "ok", r.reason);
          assert.ok(r.points.length >= 4);
          const ok = LINEARISH.has(ref.class)
            ? LINEARISH.has(r.class)
            : language === "javascript" && SUBLINEAR.has(ref.class)
            ? SUBLINEAR.has(r.class)
            : r.class === ref.class;
          if (!ok) {
            misses.push(
              `run ${i + 1}: got ${r.class} (${r.reason}); points ${
                JSON.stringify(r.points)
              }`,
            );
          }
        }
        // Right in a clear majority of the runs: on a loaded 2-core machine
        // one run can be disturbed (the benchmark reports the rate over 20).
        assert.ok(misses.length <= 1, misses.join("\n"));
      },
    );
  }
}

Deno.test(
  "measureComplexity() measures the sizes given and reports a compile error as a status",
  opts,
  async () => {
    const r = await sandbox.measureComplexity({
      language: "javascript",
      code:
        "function f(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }",
      entry: "f",
      input: (n) => [n],
      sizes: [1000, 2000, 4000, 8000, 16000],
    });
    assert.deepEqual(r.points.map((p) => p.n), [1000, 2000, 4000, 8000, 16000]);
    assert.ok(r.points.every((p) => p.ms > 0));
    assert.ok(r.fit.length === 7 && r.fit[0]!.error <= r.fit[6]!.error);
    const bad = await sandbox.measureComplexity({
      language: "python",
      code: "def f(:\n",
      entry: "f",
      input: (n) => [n],
    });
    assert.equal(bad.status, "compile_error");
    assert.equal(bad.class, "unknown");
    await assert.rejects(
      () =>
        sandbox.measureComplexity({
          language: "python",
          code: "",
          entry: "f",
          input: (n) => [n],
          sizes: [0],
        }),
      TypeError,
    );
  },
);

Deno.test(
  "measureComplexity() grows past the default sizes in Python while a quadratic top is unsettled, never in JavaScript",
  opts,
  async () => {
    // Linear work up to n = 8,192, quadratic above: the last default step
    // (8,192 to 16,384) grows as n^2 after one of n^1, the shape of a
    // memmove's quadratic term showing only at the top (string prepending,
    // `del` from a list). The margins to the rule's lines (1.4 for the
    // last step, 1.7 for both) hold on a loaded machine, which the real
    // string-prepending series (n^1.3-1.6 at the top) does not: whether it
    // comes out O(n^2) is measured by the benchmark and the bank test. Eight
    // additions per unit keep the top step's samples in the milliseconds,
    // where another process's load cannot flatten the step (a CI run at
    // 0.3 ms per sample once saw it as n^1.3 and stopped at 16,384).
    const code = {
      python:
        "def f(n):\n    k = 8 * (n if n <= 8192 else n * n // 8192)\n    s = 0\n    for i in range(k):\n        s += i\n    return s\n",
      javascript:
        "function f(n) { const k = 8 * (n <= 8192 ? n : n * n / 8192); let s = 0; for (let i = 0; i < k; i++) s += i; return s; }",
    };
    const tops: Record<string, number> = {};
    for (const language of ["python", "javascript"] as const) {
      const r = await sandbox.measureComplexity({
        language,
        code: code[language],
        entry: "f",
        input: (n) => [n],
      });
      assert.equal(r.status, "ok", r.reason);
      tops[language] = Math.max(...r.points.map((p) => p.n));
    }
    assert.ok(tops.python! > 16384, `python stopped at ${tops.python}`);
    assert.ok(
      tops.javascript! <= 16384,
      `javascript grew to ${tops.javascript}`,
    );
  },
);
