import assert from "node:assert/strict";
import { createSandbox, type Language } from "../../../lib/sandbox/mod.ts";
import {
  type CodeProblem,
  compareOutput,
  loadBank,
} from "../../../lib/suites/code/bank/mod.ts";

/** One solution file of a problem, as the sandbox will run it. */
interface Solution {
  file: string;
  language: Language;
  code: string;
  entry: string;
}

function solutions(p: CodeProblem): Solution[] {
  const out: Solution[] = [
    {
      file: "reference.py",
      language: "python",
      code: p.reference.python,
      entry: p.entry.python,
    },
    {
      file: "reference.js",
      language: "javascript",
      code: p.reference.javascript,
      entry: p.entry.javascript,
    },
  ];
  if (p.naive.python !== undefined) {
    out.push({
      file: "naive.py",
      language: "python",
      code: p.naive.python,
      entry: p.entry.python,
    });
  }
  if (p.naive.javascript !== undefined) {
    out.push({
      file: "naive.js",
      language: "javascript",
      code: p.naive.javascript,
      entry: p.entry.javascript,
    });
  }
  return out;
}

Deno.test({
  name:
    "loadBank() problems: both references and the naive solutions agree on every test, in the sandbox",
  // The sandbox keeps warm workers and timers of its own until closed.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const bank = await loadBank();
    const sandbox = createSandbox({ warm: 2, concurrency: 2 });
    const problems: string[] = [];
    try {
      await Promise.all(bank.map(async (p) => {
        const calls = p.tests.map((t) => t.args);
        const runs = await Promise.all(
          solutions(p).map(async (s) => ({
            s,
            run: await sandbox.runCode({
              language: s.language,
              code: s.code,
              entry: s.entry,
              calls,
              timeoutMs: 60_000,
              memoryMb: 512,
            }),
          })),
        );
        const [reference, ...others] = runs;
        const expected = reference!.run.results;
        for (const { s, run } of runs) {
          if (run.status !== "ok") {
            problems.push(
              `${p.id}/${s.file}: status ${run.status} (${run.error ?? ""})`,
            );
            continue;
          }
          run.results.forEach((r, i) => {
            if (!r.ok) {
              problems.push(`${p.id}/${s.file}: test ${i} threw ${r.error}`);
            }
          });
        }
        for (const { s, run } of others) {
          if (run.status !== "ok") continue;
          p.tests.forEach((t, i) => {
            const want = expected[i];
            const got = run.results[i];
            if (!want?.ok || !got?.ok) return;
            if (
              !compareOutput(
                p.compare,
                t.args,
                want.value,
                got.value,
                p.checker,
              )
            ) {
              problems.push(
                `${p.id}/${s.file}: test ${i} ${
                  JSON.stringify(t.args).slice(0, 80)
                } gives ${JSON.stringify(got.value)}, reference.py ${
                  JSON.stringify(want.value)
                }`,
              );
            }
          });
        }
        if (p.checker) {
          p.tests.forEach((t, i) => {
            const want = expected[i];
            if (want?.ok && !p.checker!(structuredClone(t.args), want.value)) {
              problems.push(
                `${p.id}/reference.py: test ${i}: the checker rejects it`,
              );
            }
          });
        }
      }));
    } finally {
      await sandbox.close();
    }
    assert.deepEqual(problems, []);
  },
});
