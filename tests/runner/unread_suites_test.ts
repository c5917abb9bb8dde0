/**
 * A sim sweep says so when a sim model read none of a suite's prompts
 * (no sim skill: every row is the sim's non-answer), one warning per
 * suite × model, and says nothing when the sim reads the suite.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../lib/config/mod.ts";
import { defineSkill } from "../../lib/providers/sim/mod.ts";
import { runSweep } from "../../lib/runner/mod.ts";
import { loadSuites } from "../../lib/suites/registry.ts";
import type { Suite, SuiteList } from "../../lib/suites/types.ts";
import { toySuite } from "../fixtures/toy_suite.ts";

const [arithmetic] = await loadSuites(["arithmetic"]);
const ARITHMETIC = {
  name: "arithmetic",
  params: { families: ["add"], digits: [2], count: 3 },
};
const MODELS = [
  { name: "sim-strong", provider: "sim" },
  { name: "weak", provider: "sim", model: "sim-weak" },
];
/** The toy suite with no sim skill: the sim cannot read its prompts. */
const MUTE: Suite = { ...toySuite, simSkills: [] } as Suite;

async function sweep(
  suites: SuiteList,
  entries: unknown[],
  options: { cacheDir?: string } = {},
): Promise<{ warnings: string[]; rows: Record<string, unknown>[] }> {
  const out = await Deno.makeTempDir({ prefix: "unread_" });
  try {
    const config = parseConfig(
      {
        outputDir: out,
        cache: options.cacheDir !== undefined,
        models: MODELS,
        suites: entries,
      },
      "unread-test",
      { suites },
    );
    const result = await runSweep(config, {
      suites,
      progress: "none",
      ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    });
    const text = await Deno.readTextFile(`${result.runDir}/results.jsonl`);
    const rows = text.split("\n").filter((l) => l !== "").map((l) =>
      JSON.parse(l)
    );
    return { warnings: result.warnings, rows };
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test("runSweep() warns once per sim model, naming suite and model, when no sim skill reads a suite", async () => {
  const { warnings, rows } = await sweep([MUTE, arithmetic!], [
    { name: "toy", params: { count: 4 } },
    ARITHMETIC,
  ]);
  assert.equal(warnings.length, 2, warnings.join("\n"));
  for (const model of ["sim-strong", "weak"]) {
    const line = warnings.find((w) => w.includes(`"${model}"`));
    assert.ok(line, `no warning for ${model}:\n${warnings.join("\n")}`);
    assert.match(
      line,
      /sim model "[^"]+" has no skill for any of the 8 prompts of suite "toy"/,
    );
    assert.match(line, /docs\/write-a-suite\.md/);
  }
  assert.ok(!warnings.some((w) => w.includes("arithmetic")));
  // The rows are what they always were: the sim's non-answer, unparsed.
  const toy = rows.filter((r) => r.suite === "toy");
  assert.equal(toy.length, 2 * 4 * 2);
  assert.ok(toy.every((r) => r.status === "parse_error"));
});

Deno.test("runSweep() does not warn when the sim reads the suite (arithmetic, the toy suite with its skill)", async () => {
  const { warnings, rows } = await sweep([toySuite as Suite, arithmetic!], [
    { name: "toy", params: { count: 4 } },
    ARITHMETIC,
  ]);
  assert.deepEqual(warnings, []);
  assert.equal(rows.length, 2 * (4 * 2 + 3));
});

Deno.test("runSweep() does not warn when a sim skill reads only some of a suite's prompts", async () => {
  const [skill] = toySuite.simSkills ?? [];
  const evenOnly = defineSkill({
    name: "toy-even-only",
    match: (input) =>
      /^is (\d+) even/i.exec(input.question)?.[1]?.endsWith("4") ? true : null,
    solve: (_task, input) => skill!.answer(input)!,
  });
  // Questions are 7, 104, 201, 298: the skill reads only 104.
  const some: Suite = { ...toySuite, simSkills: [evenOnly] } as Suite;
  const { warnings, rows } = await sweep([some], [{
    name: "toy",
    params: { count: 4 },
  }]);
  assert.deepEqual(warnings, []);
  const read = rows.filter((r) => r.status !== "parse_error");
  assert.equal(read.length, 2 * 2, "the 104 rows of each model");
});

Deno.test("runSweep() warns from the prompts, so a re-run served from the cache warns too", async () => {
  const cacheDir = await Deno.makeTempDir({ prefix: "unread_cache_" });
  try {
    const entries = [{ name: "toy", params: { count: 2 } }];
    const first = await sweep([MUTE], entries, { cacheDir });
    const again = await sweep([MUTE], entries, { cacheDir });
    assert.ok(again.rows.every((r) => r.cached === true));
    assert.equal(first.warnings.length, 2);
    assert.deepEqual(again.warnings, first.warnings);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});
