import assert from "node:assert/strict";
import { measureQuality } from "../../../lib/suites/code/quality/mod.ts";
import { closeSandbox } from "../../../lib/sandbox/mod.ts";
import { loadBank } from "../../../lib/suites/code/bank/mod.ts";

const JS_BRANCHY = `// Classify numbers.
function classify(xs, limit) {
  /* block
     comment */
  const out = [];
  for (const x of xs) {
    if (x > 0 && x < limit) {
      out.push(x % 2 === 0 ? "even" : "odd");
    } else if (x < 0 || x === limit) {
      out.push("edge");
    } else {
      while (x > limit) {
        break;
      }
    }
  }
  switch (out.length) {
    case 0:
      return null;
    case 1:
      return out[0] ?? null;
    default:
      return out;
  }
}
`;

Deno.test("measureQuality() counts JavaScript lines, decisions and nesting", async () => {
  const q = await measureQuality(JS_BRANCHY, "javascript");
  // for-of, if, &&, ?:, else-if, ||, while, case, case, ?? = 10 decisions.
  assert.equal(q.cyclomatic, 11);
  // for > if (else-if continues) > while = 3.
  assert.equal(q.nesting, 3);
  // 25 text lines minus 3 comment lines (the first and the block comment).
  assert.equal(q.lines, 22);
  assert.equal(q.parse_ok, true);
  assert.equal(q.lint_findings, 0);
});

Deno.test("measureQuality() reports deno lint findings for JavaScript", async () => {
  const q = await measureQuality(
    "function f(a) {\n  var unused = 1;\n  let b = a;\n  if (a == null) debugger;\n  return b;\n}\n",
    "javascript",
  );
  assert.equal(q.parse_ok, true);
  assert.ok(q.findings.includes("no-unused-vars"), q.findings.join(","));
  assert.ok(q.findings.includes("no-debugger"), q.findings.join(","));
  assert.ok(q.findings.includes("prefer-const"), q.findings.join(","));
  assert.equal(q.lint_findings, q.findings.length);
});

Deno.test("measureQuality() ignores deno-lint-ignore directives in the candidate", async () => {
  const q = await measureQuality(
    "// deno-lint-ignore-file\nfunction f() {\n  // deno-lint-ignore no-debugger\n  debugger;\n}\n",
    "javascript",
  );
  assert.deepEqual(q.findings, ["no-debugger"]);
});

Deno.test("measureQuality() does not call an uncalled entry function unused", async () => {
  const q = await measureQuality(
    "const add = (a, b) => a + b;\nexport function sub(a, b) {\n  return a - b;\n}\n",
    "javascript",
  );
  assert.deepEqual([q.lint_findings, q.cyclomatic, q.nesting], [0, 1, 0]);
});

Deno.test("measureQuality() parses TypeScript and resets nesting in nested functions", async () => {
  const q = await measureQuality(
    "function f(xs: number[]): number {\n  let s = 0;\n  for (const x of xs) {\n    const g = (y: number): number => {\n      if (y > 0) return y;\n      return 0;\n    };\n    s += g(x);\n  }\n  return s;\n}\n",
    "javascript",
  );
  assert.equal(q.parse_ok, true);
  assert.equal(q.cyclomatic, 3);
  assert.equal(q.nesting, 1);
  assert.equal(q.lines, 11);
  assert.equal(q.lint_findings, 0);
});

Deno.test("measureQuality() marks unparsable JavaScript", async () => {
  const q = await measureQuality(
    "function f( {\n  return 1;\n}\n",
    "javascript",
  );
  assert.deepEqual(
    [q.parse_ok, q.cyclomatic, q.nesting, q.lint_findings, q.lines],
    [false, 0, 0, null, 3],
  );
});

const PY_BRANCHY = `import math

def f(xs, acc=[], list=None):
    """Docstring
    over two lines."""
    # a comment
    unused = 3
    total = 0
    for x in xs:
        if x > 0 and x < 10 or x == 42:
            total += x
        elif x < 0:
            try:
                total -= 1
            except:
                pass
    return [y for y in xs if y] if total else None
`;

const PY_MATCH = `def g(cmd, items=dict()):
    match cmd:
        case "a":
            return 1
        case "b" | "c":
            return 2
        case _:
            def inner(v):
                while v:
                    v -= 1
                return v
            return inner(len(items))
`;

Deno.test("measureQuality() measures Python with ast inside the sandbox", async () => {
  const bank = await loadBank();
  try {
    // Requested together: one sandbox run analyses them all.
    const refs = Promise.all(
      bank.map((p) => measureQuality(p.reference.python, "python")),
    );
    const [q, m, bad, inert] = await Promise.all([
      measureQuality(PY_BRANCHY, "python"),
      measureQuality(PY_MATCH, "python"),
      measureQuality("def f(:\n    return 1\n", "python"),
      measureQuality(
        "import sys\nsys.exit(3)\nwhile True:\n    pass\n",
        "python",
      ),
    ]);
    // if, and(+1), or(+1), elif, for, except, comprehension for + if,
    // the conditional expression: 1 + 9 = 10.
    assert.equal(q.cyclomatic, 10);
    // for > if (elif continues) > try.
    assert.equal(q.nesting, 3);
    // Docstring and comment lines do not count.
    assert.equal(q.lines, 13);
    assert.equal(q.parse_ok, true);
    assert.deepEqual(q.findings.toSorted(), [
      "bare-except",
      "mutable-default",
      "shadowed-builtin:list",
      "unused-local:unused",
    ]);
    assert.equal(q.lint_findings, 4);

    // two non-wildcard cases, while: 1 + 3 = 4; nesting resets in inner().
    assert.deepEqual([m.cyclomatic, m.nesting, m.lines], [4, 1, 12]);
    assert.deepEqual(m.findings, ["mutable-default"]);

    assert.deepEqual(
      [bad.parse_ok, bad.lint_findings, bad.cyclomatic, bad.lines],
      [false, null, 0, 2],
    );

    // The analysis never executes the source it reads.
    assert.equal(inert.parse_ok, true);
    assert.equal(inert.nesting, 1);

    for (const [i, r] of (await refs).entries()) {
      assert.ok(r.parse_ok && r.cyclomatic >= 1 && r.lines >= 1, bank[i]!.id);
      assert.equal(typeof r.lint_findings, "number");
    }
  } finally {
    await closeSandbox();
  }
});

Deno.test("measureQuality() caches by language and code", async () => {
  const code = "const id = (x) => x;\n";
  const a = await measureQuality(code, "javascript");
  a.findings.push("mutated");
  const b = await measureQuality(code, "javascript");
  assert.deepEqual(b.findings, []);
  assert.equal(b.cyclomatic, 1);
});

Deno.test("measureQuality() lints programs measured together as each alone", async () => {
  // one deno lint run for the sources of one tick: each program's findings
  // must still be its own (a mix-up moves findings between programs)
  const programs = [
    "function f(a) {\n  var unused = 1;\n  if (a == null) debugger;\n  return a;\n}\n",
    "function g(x) {\n  return x + 1;\n}\n",
    "function h(y) {\n  let z = y;\n  return z;\n}\n",
    "function k(s: string): number {\n  let n = s.length;\n  return n;\n}\n",
  ];
  const together = await Promise.all(
    programs.map((code) => measureQuality(code, "javascript")),
  );
  const alone = [];
  for (const code of programs) {
    // a trailing comment: the same findings, not the cached measure
    alone.push(await measureQuality(`${code}// alone\n`, "javascript"));
  }
  assert.deepEqual(
    together.map((q) => q.findings.toSorted()),
    alone.map((q) => q.findings.toSorted()),
  );
  assert.deepEqual(together.map((q) => q.lint_findings), [3, 0, 1, 1]);
});

Deno.test("measureQuality() parses and lints every bank JavaScript reference", async () => {
  const bank = await loadBank();
  const measures = await Promise.all(
    bank.map((p) => measureQuality(p.reference.javascript, "javascript")),
  );
  for (const [i, q] of measures.entries()) {
    assert.ok(q.parse_ok, bank[i]!.id);
    assert.ok(q.cyclomatic >= 1 && q.lines >= 1, bank[i]!.id);
    assert.equal(typeof q.lint_findings, "number", bank[i]!.id);
  }
  // The references are clean code: no noise from the uncalled entry.
  const total = measures.reduce((s, q) => s + (q.lint_findings ?? 0), 0);
  assert.ok(total < bank.length / 2, `${total} findings`);
});
