import assert from "node:assert/strict";
import { createSandbox } from "../../lib/sandbox/mod.ts";
import { HIDDEN_WORK, REFERENCE_LANGUAGES, REFERENCES } from "./references.ts";

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
    const prepend = HIDDEN_WORK.find((h) =>
      h.name === "string prepending in a loop"
    )!;
    // CPython copies the string per prepend: n^1.5 at 16,384, n^1.8
    // above. Right in a clear majority of 3 runs, as the tests above (the
    // suite runs beside this file on 2 cores).
    const misses: string[] = [];
    for (let i = 0; i < 3; i++) {
      const py = await sandbox.measureComplexity({
        language: "python",
        code: prepend.code.python,
        entry: prepend.entry,
        input: prepend.input,
      });
      assert.equal(py.status, "ok", py.reason);
      const top = Math.max(...py.points.map((p) => p.n));
      if (top <= 16384 || py.class !== "O(n^2)") {
        misses.push(
          `run ${i + 1}: ${py.class} up to n = ${top} (${py.reason})`,
        );
      }
    }
    assert.ok(misses.length <= 1, misses.join("\n"));
    // map + sort allocates an array of n numbers: V8's large-object step
    // makes the top steep, which must not grow the sizes
    const js = await sandbox.measureComplexity({
      language: "javascript",
      code:
        "function f(xs) { return xs.map((x) => x * x).sort((a, b) => a - b); }",
      entry: "f",
      input: (n) => [Array.from({ length: n }, (_, i) => (i * 7919) % n)],
    });
    assert.equal(js.status, "ok", js.reason);
    assert.ok(Math.max(...js.points.map((p) => p.n)) <= 16384);
  },
);
