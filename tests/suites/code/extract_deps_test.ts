import assert from "node:assert/strict";
import { extractCode } from "../../../lib/suites/code/extract.ts";
import { pythonReader } from "../../../lib/suites/code/_extract_deps_py.ts";

// Shapes of example code that no list of example shapes named: the
// dependency cut keeps what the entry uses and drops the rest without a
// pattern for each.
const F = "`".repeat(3);
const fence = (language: string, code: string) =>
  `Here you go:\n${F}${language}\n${code}${F}\n`;

interface Case {
  name: string;
  language: "python" | "javascript";
  entry: string;
  /** The kept program. */
  kept: string;
  /** What follows it in the reply's block. */
  examples: string;
  /** The reason's list of dropped statements. */
  dropped: string;
}

const PY_F = "def f(n):\n    return n * LIMIT\n";
const CASES: Case[] = [
  {
    name: "a top-level for loop printing results through a helper",
    language: "python",
    entry: "f",
    kept: `LIMIT = 10\n\n${PY_F}\n\ndef show(x):\n    return str(x)\n`,
    examples: "\nfor n in range(3):\n    show(f(n))\n",
    dropped: "test loop (lines 10–11)",
  },
  {
    name: "main() defined and called through sys.exit",
    language: "python",
    entry: "f",
    kept:
      `import sys\n\nLIMIT = 10\n\n${PY_F}\n\ndef main():\n    return 0 if f(2) == 20 else 1\n`,
    examples: "\nsys.exit(main())\n",
    dropped: "sys.exit() call (line 12)",
  },
  {
    name:
      "a variable the entry reads stays, one computed for an example goes, an inert one stays",
    language: "python",
    entry: "f",
    kept: `LIMIT = 10\nunused = [1, 2, 3]\n\n${PY_F}`,
    examples:
      "\ncases = list(map(f, unused))\nreport = {c: c for c in cases}\n",
    dropped: "assignment (line 7), use of cases from dropped code (line 8)",
  },
  {
    name: "a helper class the entry uses stays, a demo object goes",
    language: "python",
    entry: "f",
    kept:
      "class Box:\n    def __init__(self, n):\n        self.n = n\n\n\ndef f(n):\n    return Box(n).n\n",
    examples: "\ndemo = Box(3)\ndemo.n = f(demo.n)\n",
    dropped: "assignment from Box() (line 9), assignment from f() (line 10)",
  },
  {
    name: "a JavaScript map over the entry and a demo object go",
    language: "javascript",
    entry: "f",
    kept:
      "const LIMIT = 10;\nclass Box {\n  constructor(n) {\n    this.n = n;\n  }\n}\nfunction f(n) {\n  return new Box(n).n * LIMIT;\n}\n",
    examples: "const out = [1, 2].map(f);\nconst demo = new Box(out[0]);\n",
    dropped: "assignment (line 10), use of out from dropped code (line 11)",
  },
];

for (const c of CASES) {
  Deno.test(`extractCode() drops by dependency: ${c.name}`, async () => {
    const x = await extractCode(fence(c.language, c.kept + c.examples), {
      language: c.language,
      entry: c.entry,
    });
    assert.equal(x.code, c.kept, x.reason);
    assert.match(
      x.reason,
      new RegExp(`dropped top-level example code: ${RegExp.escape(c.dropped)}`),
    );
  });
}

Deno.test("extractCode() drops all top-level code that runs when no statement declares the entry", async () => {
  const kept = "class Solution:\n    def helper(self):\n        return 1\n";
  const x = await extractCode(
    fence("python", `${kept}\nprint(Solution().helper())\n`),
    { language: "python", entry: "two_sum" },
  );
  assert.equal(x.rule, "no_entry");
  assert.equal(x.code, kept);
  assert.match(
    x.reason,
    /dropped top-level example code: print call \(line 5\)/,
  );
});

Deno.test("pythonReader() says why when Python cannot be run, and the code is kept as is", async () => {
  const reader = pythonReader("/nonexistent/python3");
  const read = await reader.read("def f():\n    return 1\n");
  await reader.close();
  assert.ok("error" in read);
  assert.match(read.error, /^cannot run \/nonexistent\/python3: /);
});

Deno.test("pythonReader() parses without running the code", async () => {
  const marker = `/tmp/extract_deps_${crypto.randomUUID()}`;
  const reader = pythonReader();
  const read = await reader.read(
    `open(${
      JSON.stringify(marker)
    }, "w").write("ran")\ndef f():\n    return 1\n`,
  );
  await reader.close();
  assert.ok(!("error" in read));
  assert.equal(read.length, 2);
  assert.throws(() => Deno.statSync(marker), Deno.errors.NotFound);
});

Deno.test("pythonReader() answers many reads at once, each with its own program, and a read after close starts it again", async () => {
  const reader = pythonReader();
  const programs = Array.from(
    { length: 200 },
    (_, i) => `def f${i}(x):\n    return x\n${"print(1)\n".repeat(i % 3)}`,
  );
  const reads = await Promise.all(programs.map((p) => reader.read(p)));
  assert.deepEqual(
    reads.map((r) => Array.isArray(r) && r.map((s) => s.binds.join())),
    programs.map((_, i) => [`f${i}`, ...Array(i % 3).fill("")]),
  );
  // Another program's odd text, a lone surrogate or a NUL, is read too.
  const odd = await reader.read("s = '\ud800'\x00\n");
  assert.ok("error" in odd, JSON.stringify(odd));
  await reader.close();
  const again = await reader.read("def g():\n    return 2\n");
  assert.ok(Array.isArray(again) && again[0]!.binds[0] === "g");
  await reader.close();
});

Deno.test({
  name:
    "extractCode() keeps Python code as is, saying why, when python3 may not be run",
  permissions: { run: false, read: true, env: true },
  fn: async () => {
    const code = "def f(n):\n    return n\n\nprint(f(2))\n";
    const x = await extractCode(fence("python", code), {
      language: "python",
      entry: "f",
    });
    assert.equal(x.code, code);
    assert.match(
      x.reason,
      /cannot be scanned \(cannot run \/usr\/bin\/python3: [^)]*run access[^)]*\): kept as is$/,
    );
  },
});
