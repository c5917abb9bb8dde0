/**
 * `uniqueList`: a config list whose entries are part of a row key holds
 * each entry once, compared by canonical value; every suite's key lists
 * use it, so a repeat is named at its path with its value.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { uniqueList } from "../../lib/config/unique.ts";
import { SUITES } from "../../lib/suites/mod.ts";

Deno.test("uniqueList() puts one issue at each repeat's index, naming the value and its first index", () => {
  const list = uniqueList(z.array(z.int()));
  const issues = list.safeParse([2, 4, 2, 8, 4, 2]).error?.issues ?? [];
  assert.deepEqual(
    issues.map((i) => [i.path, i.message]),
    [
      [[2], "2 is listed again (first at [0]); list each entry once"],
      [[4], "4 is listed again (first at [1]); list each entry once"],
      [[5], "2 is listed again (first at [0]); list each entry once"],
    ],
  );
  assert.deepEqual(list.parse([2, 4, 8]), [2, 4, 8]);
});

Deno.test("uniqueList() compares by canonical value: equal pairs and objects repeat, reordered pairs do not", () => {
  const pairs = uniqueList(z.array(z.tuple([z.int(), z.int()])));
  assert.equal(pairs.safeParse([[3, 4], [4, 3]]).success, true);
  assert.match(
    pairs.safeParse([[3, 4], [3, 4]]).error?.issues[0]?.message ?? "",
    /^\[3,4\] is listed again/,
  );
  const objects = uniqueList(z.array(z.record(z.string(), z.int())));
  assert.equal(
    objects.safeParse([{ a: 1, b: 2 }, { b: 2, a: 1 }]).success,
    false,
  );
});

Deno.test("uniqueList() with a key and a place: the issue goes to the field, with the caller's message", () => {
  const models = uniqueList(
    z.array(z.strictObject({ name: z.string(), model: z.string() })),
    {
      key: (m) => m.name,
      at: ["name"],
      message: ({ entry, index, first }) => `${entry.name} ${index} ${first}`,
    },
  );
  const issues = models.safeParse([
    { name: "a", model: "x" },
    { name: "b", model: "x" },
    { name: "a", model: "y" },
  ]).error?.issues ?? [];
  assert.deepEqual(issues.map((i) => [i.path, i.message]), [[
    [2, "name"],
    "a 2 0",
  ]]);
});

Deno.test("uniqueList() leaves a list with invalid entries to the entries' own issues", () => {
  const list = uniqueList(z.array(z.enum(["add", "sub"])));
  const issues = list.safeParse(["add", "mul", "add"]).error?.issues ?? [];
  assert.deepEqual(issues.map((i) => i.path), [[1]]);
  // .default() and .optional() chain after it.
  assert.deepEqual(uniqueList(z.array(z.int())).default([1]).parse(undefined), [
    1,
  ]);
});

Deno.test("every suite's key lists refuse a repeated entry at its path", () => {
  const cases: [string, Record<string, unknown>, (string | number)[]][] = [
    ["arithmetic", { families: ["add", "add"] }, ["families", 1]],
    ["arithmetic", { digits: [2, 2] }, ["digits", 1]],
    ["arithmetic", { families: ["mul"], mulDigits: [[3, 4], [3, 4]] }, [
      "mulDigits",
      1,
    ]],
    ["arithmetic", { ops: [3, 3] }, ["ops", 1]],
    ["arithmetic", { division: ["decimal", "decimal"] }, ["division", 1]],
    ["linalg", { sizes: [4, 4] }, ["sizes", 1]],
    ["linalg", { tasks: ["rank", "rank"] }, ["tasks", 1]],
    ["linalg", { formats: ["latex", "latex"] }, ["formats", 1]],
    ["code", { languages: ["javascript", "javascript"] }, ["languages", 1]],
    ["code", { topics: ["two_pointers", "two_pointers"] }, ["topics", 1]],
    ["code", { difficulties: ["hard", "hard"] }, ["difficulties", 1]],
    ["code", { problems: ["balanced_brackets", "balanced_brackets"] }, [
      "problems",
      1,
    ]],
    ["ceval", { subjects: ["law", "law"] }, ["subjects", 1]],
  ];
  for (const [name, params, path] of cases) {
    const suite = SUITES.find((s) => s.name === name)!;
    const check = suite.validateParams(params);
    assert.equal(check.ok, false, `${name} ${JSON.stringify(params)}`);
    if (check.ok) continue;
    assert.deepEqual(check.issues.map((i) => i.path), [path], name);
    assert.match(
      check.issues[0]!.message,
      /is listed again \(first at \[0\]\); list each entry once/,
    );
  }
  // [3, 4] and [4, 3] are two levels; the same values in two lists are fine.
  const arithmetic = SUITES.find((s) => s.name === "arithmetic")!;
  assert.deepEqual(
    arithmetic.validateParams({
      families: ["mul"],
      mulDigits: [[3, 4], [4, 3]],
      digits: [3],
      ops: [3],
    }),
    { ok: true },
  );
});
