import assert from "node:assert/strict";
import { findMatrices } from "../../../lib/extract/mod.ts";
import {
  LINALG_TEMPLATES,
  problemStatement,
  renderMatrix,
} from "../../../lib/suites/linalg/mod.ts";
import { linalgSuite } from "../../../lib/suites/linalg/suite.ts";

Deno.test("renderMatrix() output reads back identically in all three formats", () => {
  const m = [["-3", "5", "1"], ["-2", "-13", "9"], ["1", "1", "-6"]];
  for (const format of ["latex", "list", "table"] as const) {
    const found = findMatrices(renderMatrix(m, format));
    assert.deepEqual(found.map((f) => f.rows), [m], format);
  }
  assert.equal(renderMatrix(m, "table").split("\n")[0], "|  -3     5     1 |");
});

Deno.test("problemStatement() names both operands and the vector", () => {
  const text = problemStatement({
    id: "p",
    source: "generated",
    task: "matrix_vector",
    n: 2,
    A: [["1", "2"], ["3", "4"]],
    x: ["5", "6"],
  }, "list");
  assert.match(text, /A = \[\[1, 2\], \[3, 4\]\]/);
  assert.match(text, /x = \[5, 6\]/);
});

Deno.test("LINALG_TEMPLATES.paper sends the precise-assistant system message and the paper's closing", async () => {
  const [q] = await linalgSuite.questions({
    seed: 0,
    params: {
      source: "linalgbench",
      tasks: ["transpose"],
      sizes: [3],
      count: 1,
    },
    baseDir: ".",
  });
  const messages = LINALG_TEMPLATES.paper!.render(q!);
  assert.equal(messages[0]!.role, "system");
  assert.match(messages[0]!.content, /precise mathematical assistant/);
  assert.match(messages[0]!.content, /\\boxed\{\}/);
  assert.match(
    messages[1]!.content,
    /Write out A\^T explicitly\. Put the final matrix inside \\boxed\{\}\.$/,
  );
  assert.match(
    LINALG_TEMPLATES.answer_only!.render(q!)[1]!.content,
    /only the final answer/,
  );
});

Deno.test("LINALG_TEMPLATES.original sends the published cell, completing matrices-only 4×4 cells", async () => {
  const load = async (n: number) =>
    (await linalgSuite.questions({
      seed: 0,
      params: { tasks: ["rank"], sizes: [n], count: 1 },
      baseDir: ".",
    }))[0]!;
  const [q3, q4] = [await load(3), await load(4)];
  const full = LINALG_TEMPLATES.original!.render(q3)[1]!.content;
  assert.equal(full, q3.payload!["original"]);
  const completed = LINALG_TEMPLATES.original!.render(q4)[1]!.content;
  assert.match(
    completed,
    /^Find the rank of the 4×4 matrix A\.\n\nA = \\begin\{bmatrix\}/,
  );
  assert.match(completed, /inside \\boxed\{\}\.$/);
});
