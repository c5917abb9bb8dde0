import assert from "node:assert/strict";
import { compareBareAndTool } from "../../../lib/suites/arithmetic/mod.ts";

Deno.test("compareBareAndTool() puts bare and tool accuracy side by side per model and group", () => {
  const rows = [
    { model: "b", template: "direct", correct: true, group: 8 },
    { model: "a", template: "direct", correct: false, group: 10 },
    { model: "a", template: "direct", correct: true, group: 10 },
    { model: "a", template: "calculator", correct: true, group: 10 },
    { model: "a", template: "direct", correct: true, group: 2 },
    { model: "a", template: "cot", correct: false, group: 2 },
  ];
  const table = compareBareAndTool(rows);
  assert.deepEqual(table.map((r) => [r.model, r.group]), [["a", "2"], [
    "a",
    "10",
  ], ["b", "8"]]);
  assert.deepEqual(table[1], {
    model: "a",
    group: "10",
    bare: { n: 2, correct: 1, accuracy: 0.5 },
    tool: { n: 1, correct: 1, accuracy: 1 },
    gain: 0.5,
  });
  assert.equal(table[0]?.tool.accuracy, null);
  assert.equal(table[0]?.gain, null);
  assert.equal(table[0]?.bare.n, 1, "cot rows are ignored by default");
});

Deno.test("compareBareAndTool() takes custom bare and tool template lists", () => {
  const rows = [
    { model: "m", template: "cot", correct: true },
    { model: "m", template: "calc2", correct: false },
  ];
  const [r] = compareBareAndTool(rows, { bare: ["cot"], tool: ["calc2"] });
  assert.equal(r?.bare.accuracy, 1);
  assert.equal(r?.tool.accuracy, 0);
  assert.equal(r?.gain, -1);
  assert.equal(r?.group, "");
});
