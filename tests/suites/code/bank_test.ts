import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BUNDLED_CODE_PROBLEMS,
  compareOutput,
  COMPLEXITY_CLASSES,
  largeInput,
  loadBank,
  TOPICS,
} from "../../../lib/suites/code/bank/mod.ts";

const bank = await loadBank();

async function problemFolders(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory && !e.name.startsWith(".")) out.push(e.name);
  }
  return out.sort();
}

Deno.test("loadBank() loads every problem folder of the shipped bank", async () => {
  const folders = await problemFolders(BUNDLED_CODE_PROBLEMS);
  assert.deepEqual(bank.map((p) => p.id), folders);
  for (const p of bank) {
    assert.match(
      p.reference.python,
      new RegExp(`^def ${p.entry.python}\\(`, "m"),
    );
    assert.match(
      p.reference.javascript,
      new RegExp(`^function ${p.entry.javascript}\\(`, "m"),
    );
    assert.ok(p.naive.python !== undefined || p.naive.javascript !== undefined);
    assert.equal(p.checker !== undefined, p.compare === "checker", p.id);
    assert.ok(
      COMPLEXITY_CLASSES.indexOf(p.naiveComplexity) >
        COMPLEXITY_CLASSES.indexOf(p.complexity),
      p.id,
    );
  }
});

Deno.test("loadBank() ships at least 40 problems, at least 2 per topic of all 16", () => {
  assert.ok(bank.length >= 40, `only ${bank.length} problems`);
  assert.equal(TOPICS.length, 16);
  const missing = TOPICS.filter((t) =>
    bank.filter((p) => p.topic === t).length < 2
  );
  assert.deepEqual(missing, [], `topics with fewer than 2 problems`);
  for (const d of ["easy", "medium", "hard"] as const) {
    assert.ok(bank.some((p) => p.difficulty === d), d);
  }
});

async function withBank(
  problems: Record<string, Record<string, string>>,
  body: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "code-bank-" });
  try {
    for (const [id, files] of Object.entries(problems)) {
      await Deno.mkdir(join(dir, id));
      for (const [name, text] of Object.entries(files)) {
        await Deno.writeTextFile(join(dir, id, name), text);
      }
    }
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function copyOf(id: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(join(BUNDLED_CODE_PROBLEMS, id))) {
    out[e.name] = await Deno.readTextFile(
      join(BUNDLED_CODE_PROBLEMS, id, e.name),
    );
  }
  return out;
}

function edited(
  files: Record<string, string>,
  edit: (p: Record<string, unknown>) => void,
): Record<string, string> {
  const p = JSON.parse(files["problem.json"]!);
  edit(p);
  return { ...files, "problem.json": JSON.stringify(p) };
}

Deno.test("loadBank() reads a copied problem from another folder", async () => {
  await withBank(
    { first_repeated_value: await copyOf("first_repeated_value") },
    async (dir) => {
      const [p] = await loadBank(dir);
      assert.equal(p?.id, "first_repeated_value");
      assert.equal(p?.dir, join(dir, "first_repeated_value"));
    },
  );
});

Deno.test("loadBank() names the file and field of every broken problem at once", async () => {
  const good = await copyOf("first_repeated_value");
  const fewTests = edited(good, (p) => {
    p.id = "few_tests";
    p.tests = (p.tests as { kind: string }[]).filter((t, i) =>
      t.kind === "edge" || i < 3
    );
  });
  const badTopic = edited(good, (p) => {
    p.id = "bad_topic";
    p.topic = "recursion";
  });
  const wrongEntry = edited(good, (p) => {
    p.id = "wrong_entry";
    p.entry = { python: "first_repeat", javascript: "firstRepeatedValue" };
  });
  const strayChecker = {
    ...edited(good, (p) => (p.id = "stray_checker")),
    "checker.js": "export function check() { return true; }",
  };
  const noNaive = edited(good, (p) => (p.id = "no_naive"));
  delete noNaive["naive.py"];
  await withBank({
    few_tests: fewTests,
    bad_topic: badTopic,
    wrong_entry: wrongEntry,
    stray_checker: strayChecker,
    no_naive: noNaive,
    broken_json: { "problem.json": "{ not json" },
  }, async (dir) => {
    const error = await loadBank(dir).then(
      () => assert.fail("expected an error"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof TypeError);
    const lines = error.message.split("\n");
    const line = (id: string) => lines.find((l) => l.includes(`/${id}/`));
    assert.match(
      line("few_tests") ?? "",
      /^Cannot load the code problem \S*few_tests\/problem\.json: tests: expected at least 5 functional tests, found 3; add /,
    );
    assert.match(line("bad_topic") ?? "", /problem\.json: topic: /);
    assert.match(
      line("wrong_entry") ?? "",
      /wrong_entry\/reference\.py: entry\.python: does not define the entry def first_repeat\(/,
    );
    assert.match(
      line("stray_checker") ?? "",
      /stray_checker\/checker\.js: compare: present but/,
    );
    assert.match(line("no_naive") ?? "", /naive: neither naive\.py nor/);
    assert.match(line("broken_json") ?? "", /: \(file\): not valid JSON/);
    assert.ok(
      lines.some((l) => /wrong_entry\/naive\.py: entry\.python: /.test(l)),
    );
    assert.equal(lines.length, 7);
  });
});

Deno.test("loadBank()'s advice keeps the user's folders and files: set a field or give another dataset, never remove or rename", async () => {
  const good = await copyOf("first_repeated_value");
  await withBank({
    notes: { "README.txt": "my notes" },
    other_name: good,
    stray_checker: {
      ...edited(good, (p) => (p.id = "stray_checker")),
      "checker.js": "export function check() { return true; }",
    },
  }, async (dir) => {
    const error = await loadBank(dir).then(
      () => assert.fail("expected an error"),
      (e: unknown) => e as Error,
    );
    const lines = error.message.split("\n");
    const line = (id: string) => lines.find((l) => l.includes(`/${id}/`));
    assert.match(
      line("notes") ?? "",
      /problem\.json: \(file\): missing; add problem\.json .*, or give "dataset" a bank folder that holds only problem folders/,
    );
    assert.match(
      line("other_name") ?? "",
      /id: expected "other_name" \(the folder name\), found "first_repeated_value"; set "id" to "other_name"/,
    );
    assert.match(
      line("stray_checker") ?? "",
      /checker\.js: compare: present but .*; set compare to "checker" to judge with it/,
    );
    assert.doesNotMatch(error.message, /\b(remove|rename|delete|move)\b/i);
  });
});

Deno.test("loadBank() reports a missing folder as NotFound", async () => {
  await assert.rejects(
    loadBank("/nonexistent/code/problems"),
    Deno.errors.NotFound,
  );
});

Deno.test("compareOutput() compares exactly by JSON value", () => {
  assert.ok(
    compareOutput({ a: 1, b: [2] }, { b: [2], a: 1 }, {
      rule: "exact",
      args: [],
    }),
  );
  assert.ok(compareOutput(null, null, { rule: "exact", args: [] }));
  assert.ok(compareOutput(5, 5.0, { rule: "exact", args: [] }));
  assert.ok(!compareOutput(true, 1, { rule: "exact", args: [] }));
  assert.ok(!compareOutput("1", 1, { rule: "exact", args: [] }));
  assert.ok(!compareOutput([1, 2], [2, 1], { rule: "exact", args: [] }));
  assert.ok(!compareOutput([1, 2], [1, 2, 3], { rule: "exact", args: [] }));
  assert.ok(!compareOutput(null, 0, { rule: "exact", args: [] }));
  assert.ok(
    !compareOutput({ a: 1 }, { a: 1, b: 2 }, { rule: "exact", args: [] }),
  );
});

Deno.test("compareOutput() compares unordered lists as multisets", () => {
  assert.ok(
    compareOutput([3, 1, 2], [1, 2, 3], { rule: "unordered", args: [] }),
  );
  assert.ok(
    compareOutput([[1, 2], [0]], [[0], [1, 2]], {
      rule: "unordered",
      args: [],
    }),
  );
  assert.ok(
    !compareOutput([[1, 2]], [[2, 1]], { rule: "unordered", args: [] }),
  );
  assert.ok(
    !compareOutput([1, 1, 2], [1, 2, 2], { rule: "unordered", args: [] }),
  );
  assert.ok(!compareOutput([1, 2], [1, 2, 2], { rule: "unordered", args: [] }));
  assert.ok(!compareOutput([1], 1, { rule: "unordered", args: [] }));
});

Deno.test("compareOutput() allows an absolute or relative float tolerance", () => {
  const rule = { float: 1e-6 };
  assert.ok(compareOutput(0.1 + 0.2, 0.3, { rule, args: [] }));
  assert.ok(compareOutput(1e12, 1e12 + 100, { rule, args: [] }));
  assert.ok(!compareOutput(1e12, 1e12 + 1e7, { rule, args: [] }));
  assert.ok(compareOutput([1, [2.0000001]], [1, [2]], { rule, args: [] }));
  assert.ok(!compareOutput([1, 2], [1, 2.1], { rule, args: [] }));
  assert.ok(!compareOutput([1, 2], [1], { rule, args: [] }));
  assert.ok(compareOutput({ x: 1 }, { x: 1 + 1e-9 }, { rule, args: [] }));
  assert.ok(!compareOutput(1, "1", { rule, args: [] }));
});

Deno.test("compareOutput() asks the checker, which sees the arguments", () => {
  const check = (args: unknown[], out: unknown) =>
    typeof out === "number" && (args[0] as number[]).includes(out);
  assert.ok(
    compareOutput(4, 5, { rule: "checker", args: [[4, 5]], checker: check }),
  );
  assert.ok(
    !compareOutput(4, 6, { rule: "checker", args: [[4, 5]], checker: check }),
  );
  const throwing = () => {
    throw new Error("bad output");
  };
  assert.ok(
    !compareOutput(4, 4, { rule: "checker", args: [[4]], checker: throwing }),
  );
  assert.throws(
    () => compareOutput(1, 1, { rule: "checker", args: [] }),
    TypeError,
  );
});

Deno.test("largeInput() is deterministic per seed and grows with n", () => {
  for (const p of bank) {
    const [n0, n1] = p.large.sizes;
    const a = JSON.stringify(largeInput(p, { n: n0!, seed: 11 }));
    assert.equal(JSON.stringify(largeInput(p, { n: n0!, seed: 11 })), a, p.id);
    assert.notEqual(
      JSON.stringify(largeInput(p, { n: n1!, seed: 11 })),
      a,
      p.id,
    );
    assert.equal(
      largeInput(p, { n: n0!, seed: 11 }).length,
      p.tests[0]!.args.length,
      `${p.id}: large() gives as many arguments as the tests`,
    );
  }
  const p = bank.find((q) => q.id === "max_window_sum")!;
  assert.notDeepEqual(
    largeInput(p, { n: 64, seed: 1 }),
    largeInput(p, { n: 64, seed: 2 }),
  );
  assert.throws(() => largeInput(p, { n: -1, seed: 1 }), RangeError);
});

Deno.test("largeInput() keeps the largest input of every problem under about 1 MB of JSON", () => {
  const enc = new TextEncoder();
  for (const p of bank) {
    const n = p.large.sizes.at(-1)!;
    const bytes =
      enc.encode(JSON.stringify(largeInput(p, { n, seed: 3 }))).length;
    assert.ok(bytes < 1_200_000, `${p.id}: ${bytes} bytes at n = ${n}`);
  }
});
