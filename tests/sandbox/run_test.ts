import assert from "node:assert/strict";
import {
  createSandbox,
  type RunRequest,
  sameValue,
} from "../../lib/sandbox/mod.ts";

const sandbox = createSandbox();
globalThis.addEventListener("unload", () => void sandbox.close());
const opts = { sanitizeOps: false, sanitizeResources: false };

const run = (r: Omit<RunRequest, "calls"> & { calls?: unknown[][] }) =>
  sandbox.runCode({ calls: [[]], ...r });

Deno.test(
  "runCode() calls a JavaScript entry once per argument list, in order",
  opts,
  async () => {
    const r = await run({
      language: "javascript",
      code: "function add(a, b) { return a + b; }",
      entry: "add",
      calls: [[1, 2], [10, 20], ["a", "b"]],
    });
    assert.equal(r.status, "ok");
    assert.deepEqual(r.results.map((x) => x.ok && x.value), [3, 30, "ab"]);
    assert.ok(r.results.every((x) => x.ok && x.ms >= 0));
  },
);

Deno.test("runCode() runs TypeScript without a type check", opts, async () => {
  const r = await run({
    language: "typescript",
    code:
      "export function f(xs: number[]): number { const n: string = 1 as any; return xs.length + n; }",
    entry: "f",
    calls: [[[1, 2, 3]]],
  });
  assert.equal(r.status, "ok");
  assert.deepEqual(r.results[0], {
    ok: true,
    value: 4,
    ms: (r.results[0] as { ms: number }).ms,
  });
});

Deno.test(
  "runCode() brings Python values back as data: tuples, dicts, big ints, NaN",
  opts,
  async () => {
    const r = await run({
      language: "python",
      code:
        "def f(x):\n    return (x, {'a': [1, 2]}, 2 ** 70, float('nan'), float('-inf'), {1: 'one'}, None, True)\n",
      entry: "f",
      calls: [[5]],
    });
    assert.equal(r.status, "ok");
    const v = r.results[0]!.ok ? r.results[0]!.value : undefined;
    assert.ok(Array.isArray(v));
    assert.equal(v[0], 5);
    assert.deepEqual(v[1], { a: [1, 2] });
    assert.equal(v[2], 2n ** 70n);
    assert.ok(Number.isNaN(v[3]));
    assert.equal(v[4], -Infinity);
    assert.deepEqual(v[5], new Map([[1, "one"]]));
    assert.equal(v[6], null);
    assert.equal(v[7], true);
  },
);

Deno.test(
  "runCode() passes big integers, NaN and Maps into Python and JavaScript",
  opts,
  async () => {
    for (const language of ["python", "javascript"] as const) {
      const code = language === "python"
        ? "def f(a, b, c):\n    return [a + 1, b != b, c[2]]\n"
        : "function f(a, b, c) { return [a + 1n, Number.isNaN(b), c.get(2)]; }";
      const r = await run({
        language,
        code,
        entry: "f",
        calls: [[2n ** 80n, NaN, new Map([[2, "two"]])]],
      });
      assert.equal(r.status, "ok", language);
      assert.ok(
        sameValue(r.results[0]!.ok && r.results[0]!.value, [
          2n ** 80n + 1n,
          true,
          "two",
        ]),
        language,
      );
    }
  },
);

Deno.test(
  "runCode() makes an unserialisable return value an error for that call only",
  opts,
  async () => {
    const py = await run({
      language: "python",
      code: "class C: pass\ndef f(k):\n    return C() if k else 1\n",
      entry: "f",
      calls: [[1], [0]],
    });
    assert.equal(py.status, "ok");
    assert.equal(py.results[0]!.ok, false);
    assert.match((py.results[0] as { error: string }).error, /serialise/);
    assert.deepEqual(py.results[1]!.ok && py.results[1]!.value, 1);
    const js = await run({
      language: "javascript",
      code: "function f() { return () => 1; }",
      entry: "f",
    });
    assert.equal(js.results[0]!.ok, false);
  },
);

Deno.test(
  "runCode() reports a raised exception per call and goes on",
  opts,
  async () => {
    const r = await run({
      language: "python",
      code: "def f(x):\n    return 10 // x\n",
      entry: "f",
      calls: [[0], [5]],
    });
    assert.equal(r.status, "ok");
    assert.equal(r.results[0]!.ok, false);
    assert.match(
      (r.results[0] as { error: string }).error,
      /ZeroDivisionError/,
    );
    assert.equal(r.results[1]!.ok && r.results[1]!.value, 2);
  },
);

Deno.test(
  "runCode() gives compile_error, no_entry and crash statuses",
  opts,
  async () => {
    const cases: [RunRequest["language"], string, string][] = [
      ["python", "def f(:\n", "compile_error"],
      ["javascript", "function f( {", "compile_error"],
      ["typescript", "function f(: number {", "compile_error"],
      ["python", "def g():\n    return 1\n", "no_entry"],
      ["javascript", "const g = 1;", "no_entry"],
      ["python", "raise ValueError('boom')\ndef f():\n    return 1\n", "crash"],
      ["javascript", "throw new Error('boom'); function f() {}", "crash"],
    ];
    for (const [language, code, status] of cases) {
      const r = await run({ language, code, entry: "f", calls: [[], []] });
      assert.equal(r.status, status, `${language}: ${code}`);
      assert.equal(r.results.length, 2);
      assert.ok(r.results.every((x) => !x.ok));
      assert.ok(r.error && r.error.length > 0);
    }
  },
);

Deno.test(
  "runCode() captures the candidate's stdout and stderr apart from results",
  opts,
  async () => {
    const r = await run({
      language: "python",
      code:
        "import sys\ndef f():\n    print('hello')\n    print('oops', file=sys.stderr)\n    return 1\n",
      entry: "f",
    });
    assert.equal(r.status, "ok");
    assert.equal(r.stdout, "hello\n");
    assert.match(r.stderr, /oops/);
    assert.equal(r.results[0]!.ok && r.results[0]!.value, 1);
  },
);

Deno.test(
  "runCode() rejects malformed requests with a TypeError",
  opts,
  async () => {
    await assert.rejects(
      () =>
        sandbox.runCode({
          language: "ruby" as "python",
          code: "",
          entry: "f",
          calls: [],
        }),
      TypeError,
    );
    await assert.rejects(
      () =>
        sandbox.runCode({
          language: "python",
          code: "",
          entry: "f()",
          calls: [],
        }),
      TypeError,
    );
    await assert.rejects(
      () =>
        sandbox.runCode({
          language: "python",
          code: "",
          entry: "f",
          calls: [[() => 1]],
        }),
      TypeError,
    );
    await assert.rejects(
      () =>
        sandbox.runCode({
          language: "python",
          code: "",
          entry: "f",
          calls: [[]],
          timeoutMs: -1,
        }),
      RangeError,
    );
  },
);

Deno.test("sameValue() compares exactly, order-free and with a float tolerance", () => {
  assert.ok(sameValue({ a: [1, 2n] }, { a: [1n, 2] }));
  assert.ok(!sameValue({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!sameValue([[1, 2], [3]], [[3], [2, 1]]));
  assert.ok(sameValue([[1, 2], [3]], [[3], [2, 1]], { unordered: true }));
  assert.ok(!sameValue(0.1 + 0.2, 0.3));
  assert.ok(sameValue([0.1 + 0.2], [0.3], { tolerance: 1e-12 }));
  assert.ok(sameValue(NaN, NaN));
  assert.ok(!sameValue(true, 1));
  assert.ok(!sameValue(null, 0));
  class Eq {
    equals() {
      return true;
    }
  }
  assert.ok(!sameValue(new Eq(), {}));
});
