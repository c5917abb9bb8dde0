/**
 * Every problem's references and naive solutions, run in the sandbox on
 * every test, must agree with reference.py (which gives the expected
 * outputs). To keep the run short (Pyodide takes seconds to start), the
 * solutions of several problems share one sandbox program, each executed in
 * its own namespace or closure; a program that does not finish cleanly is
 * re-run one solution file at a time, so every failure names its file.
 */
import assert from "node:assert/strict";
import {
  type CallResult,
  createSandbox,
  type Language,
  type Sandbox,
} from "../../../lib/sandbox/mod.ts";
import {
  type CodeProblem,
  compareOutput,
  loadBank,
} from "../../../lib/suites/code/bank/mod.ts";

/** One solution file of a problem, as the sandbox will run it. */
interface Solution {
  key: string;
  problem: CodeProblem;
  file: string;
  language: Exclude<Language, "typescript">;
  code: string;
  entry: string;
}

function solutionsOf(p: CodeProblem): Solution[] {
  const files: [string, "python" | "javascript", string | undefined][] = [
    ["reference.py", "python", p.reference.python],
    ["reference.js", "javascript", p.reference.javascript],
    ["naive.py", "python", p.naive.python],
    ["naive.js", "javascript", p.naive.javascript],
  ];
  return files.flatMap(([file, language, code]) =>
    code === undefined ? [] : [{
      key: `${p.id}/${file}`,
      problem: p,
      file,
      language,
      code,
      entry: p.entry[language],
    }]
  );
}

/** One program running many solutions, each in its own namespace. */
function batchProgram(language: "python" | "javascript", group: Solution[]) {
  if (language === "python") {
    const sources = JSON.stringify(
      Object.fromEntries(group.map((s) => [s.key, s.code])),
    );
    const entries = JSON.stringify(
      Object.fromEntries(group.map((s) => [s.key, s.entry])),
    );
    return {
      entry: "run_bank",
      code: `__SOURCES = ${sources}
__ENTRIES = ${entries}
__FNS = {}


def run_bank(key, *args):
    fn = __FNS.get(key)
    if fn is None:
        g = {"__name__": "solution"}
        exec(compile(__SOURCES[key], key, "exec"), g)
        fn = __FNS[key] = g[__ENTRIES[key]]
    return fn(*args)
`,
    };
  }
  const parts = group.map((s) =>
    `__fns[${
      JSON.stringify(s.key)
    }] = (function () {\n${s.code}\n;return ${s.entry};\n})();`
  );
  return {
    entry: "runBank",
    code: `const __fns = {};\n${
      parts.join("\n")
    }\nfunction runBank(key, ...args) { return __fns[key](...args); }\n`,
  };
}

async function runGroup(
  sandbox: Sandbox,
  language: "python" | "javascript",
  group: Solution[],
  out: Map<string, CallResult[] | string>,
): Promise<void> {
  const { code, entry } = batchProgram(language, group);
  const calls = group.flatMap((s) =>
    s.problem.tests.map((t) => [s.key, ...t.args])
  );
  const run = await sandbox.runCode({
    language,
    code,
    entry,
    calls,
    timeoutMs: 60_000,
    memoryMb: 512,
  });
  if (run.status === "ok") {
    let i = 0;
    for (const s of group) {
      out.set(s.key, run.results.slice(i, i + s.problem.tests.length));
      i += s.problem.tests.length;
    }
    return;
  }
  // Pinpoint the culprit: one program per solution file.
  await Promise.all(group.map(async (s) => {
    const one = await sandbox.runCode({
      language,
      code: s.code,
      entry: s.entry,
      calls: s.problem.tests.map((t) => t.args),
      timeoutMs: 20_000,
      memoryMb: 512,
    });
    out.set(
      s.key,
      one.status === "ok"
        ? one.results
        : `status ${one.status} (${one.error ?? ""})`,
    );
  }));
}

function disagreements(
  p: CodeProblem,
  results: Map<string, CallResult[] | string>,
): string[] {
  const found: string[] = [];
  const expected = results.get(`${p.id}/reference.py`);
  for (const s of solutionsOf(p)) {
    const got = results.get(s.key);
    if (typeof got === "string" || got === undefined) {
      found.push(`${s.key}: ${got ?? "not run"}`);
      continue;
    }
    p.tests.forEach((t, i) => {
      const r = got[i];
      const want = Array.isArray(expected) ? expected[i] : undefined;
      if (!r?.ok) {
        found.push(`${s.key}: test ${i} threw ${r?.error ?? "nothing"}`);
      } else if (
        p.checker && !p.checker(structuredClone(t.args), r.value)
      ) {
        found.push(`${s.key}: test ${i}: the checker rejects the output`);
      } else if (
        want?.ok &&
        !compareOutput(want.value, r.value, {
          rule: p.compare,
          args: t.args,
          checker: p.checker,
        })
      ) {
        found.push(
          `${s.key}: test ${i} ${JSON.stringify(t.args).slice(0, 80)} gives ${
            JSON.stringify(r.value)
          }, reference.py gives ${JSON.stringify(want.value)}`,
        );
      }
    });
  }
  return found;
}

Deno.test({
  name:
    "loadBank() problems: references and naive solutions agree with reference.py on every test, in the sandbox",
  fn: async () => {
    const bank = await loadBank();
    const sandbox = createSandbox({ warm: 2, concurrency: 2, unref: false });
    const results = new Map<string, CallResult[] | string>();
    try {
      const all = bank.flatMap(solutionsOf);
      const groups: [("python" | "javascript"), Solution[]][] = [];
      const perGroup = 40;
      for (const language of ["python", "javascript"] as const) {
        const mine = all.filter((s) => s.language === language);
        for (let i = 0; i < mine.length; i += perGroup) {
          groups.push([language, mine.slice(i, i + perGroup)]);
        }
      }
      await Promise.all(
        groups.map(([language, group]) =>
          runGroup(sandbox, language, group, results)
        ),
      );
    } finally {
      await sandbox.close();
    }
    const problems = bank.flatMap((p) => disagreements(p, results));
    assert.deepEqual(problems, []);
  },
});
