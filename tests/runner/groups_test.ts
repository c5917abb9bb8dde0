/** The rule for how a model with `n: true` asks for its samples. */
import assert from "node:assert/strict";
import {
  MAX_N,
  requestCount,
  sampleGroups,
  sharedSamples,
  workItems,
} from "../../lib/runner/mod.ts";
import type { SuiteEntry } from "../../lib/runner/mod.ts";
import { addSuite } from "./_fixtures.ts";

/** Work items of `questions` additions × both templates × `samples`. */
async function items(
  questions: number,
  samples: number,
  finished: ReadonlySet<string> = new Set(),
  tools = false,
) {
  const suite = addSuite(questions, { tools });
  const entry = {
    config: { name: "add", params: {}, templates: ["direct", "cot"] },
    suite,
    questions: await suite.questions({ seed: 0, params: {}, baseDir: "." }),
    templates: Object.entries(suite.templates),
  } as unknown as SuiteEntry;
  return workItems("m", [entry], { samples, finished });
}

Deno.test("sampleGroups() cuts the items into runs of one (question, template), at most MAX_N long", async () => {
  const groups = [...sampleGroups(await items(2, MAX_N + 2))];
  assert.deepEqual(
    groups.map((g) => [g[0]!.question.id, g[0]!.templateId, g.length]),
    [
      ["add-0", "direct", MAX_N],
      ["add-0", "direct", 2],
      ["add-0", "cot", MAX_N],
      ["add-0", "cot", 2],
      ["add-1", "direct", MAX_N],
      ["add-1", "direct", 2],
      ["add-1", "cot", MAX_N],
      ["add-1", "cot", 2],
    ],
  );
  assert.deepEqual(groups[1]!.map((i) => i.sample), [MAX_N, MAX_N + 1]);
});

Deno.test("sampleGroups() with size 1 makes every item its own group", async () => {
  const groups = [...sampleGroups(await items(2, 3), { size: 1 })];
  assert.equal(groups.length, 2 * 2 * 3);
  assert.ok(groups.every((g) => g.length === 1));
  assert.equal(groups.map(requestCount).reduce((a, b) => a + b), 12);
});

Deno.test("requestCount() shares the leading samples at their place and sends a resume's gaps one by one", async () => {
  // Finished rows leave gaps: question 0 lacks 1 and 2, question 1 lacks
  // 0, question 2 lacks 0 and 2, question 3 lacks 0 and 1 (direct only).
  const all = [...await items(4, 3)].filter((i) => i.templateId === "direct");
  const missing = new Set([
    "add-0|1",
    "add-0|2",
    "add-1|0",
    "add-2|0",
    "add-2|2",
    "add-3|0",
    "add-3|1",
  ]);
  const finished = new Set(
    all.filter((i) => !missing.has(`${i.question.id}|${i.sample}`))
      .map((i) => `m|${i.question.id}|direct|${i.sample}`),
  );
  const groups = [...sampleGroups(await items(4, 3, finished))]
    .filter((g) => g[0]!.templateId === "direct");
  assert.deepEqual(groups.map((g) => g.map((i) => i.sample)), [
    [1, 2],
    [0],
    [0, 2],
    [0, 1],
  ]);
  assert.deepEqual(groups.map(requestCount), [2, 1, 2, 1]);
  assert.deepEqual(groups.map((g) => sharedSamples(g)), [0, 0, 0, 2]);
});

Deno.test("sharedSamples() stops at a cached sample and is 0 for a template with tools", async () => {
  const [first] = sampleGroups(await items(1, 4));
  assert.equal(sharedSamples(first!), 4);
  assert.equal(sharedSamples(first!, (i) => i === 2), 2);
  assert.equal(sharedSamples(first!, (i) => i === 1), 0);
  assert.equal(sharedSamples(first!, (i) => i === 0), 0);
  const [tooled] = sampleGroups(await items(1, 4, new Set(), true));
  assert.equal(tooled![0]!.templateId, "direct");
  assert.equal(sharedSamples(tooled!), 0);
  assert.equal(requestCount(tooled!), 4);
});
