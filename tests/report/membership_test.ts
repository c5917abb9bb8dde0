/**
 * The membership rule (which rows are the run's own) has a plain form
 * (`notTheRuns`, used by the closing table) and a Polars form (the report's
 * loader): on rows breaking each rule, both set aside the same rows with
 * the same warning, and count the rest the same.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRuns, summarizeResultsText } from "../../lib/report/mod.ts";
import { buildIdentity } from "../../lib/store/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";
import type { ResultRow } from "../../lib/types.ts";

Deno.test("the plain and the Polars membership rules set aside the same rows with the same words", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const rows = fakeRows({ questions: 6 }); // 24 rows: 2 models × 2 templates
    const extra = (edit: Partial<ResultRow>, i = 0): ResultRow => {
      const row = { ...rows[i]!, ...edit };
      if (edit.key === undefined) {
        row.key =
          `${row.model}|${row.question_id}|${row.template}|${row.sample}`;
      }
      return row;
    };
    const planted: ResultRow[] = [
      extra({ run: "another-run" }, 0), // row 25
      extra({ model: "m-other" }, 1), // row 26
      extra({ sample: 3 }, 2), // row 27
      extra({ template: "few_shot" }, 3), // row 28
      extra({ key: "m-good|nope|direct|0" }, 4), // row 29
      extra({}, 5), // row 30: repeats row 6's key
      extra({ run: "another-run" }, 6), // row 31
    ];
    const identity = buildIdentity({
      rowConfig: {},
      inputs: [],
      suites: [{
        entry: "suites[0]",
        suite: "arithmetic",
        version: "1",
        templates: ["direct", "cot"],
        questions: 6,
        questionsSha256: "0".repeat(64),
      }],
    });
    const dir = await writeFakeRun(tmp, "run", [...rows, ...planted], {
      run: "fake",
      config: {
        models: [{ name: "m-good" }, { name: "m-bad" }],
        samples: 1,
        suites: [{ name: "arithmetic", templates: ["direct", "cot"] }],
      },
      identity,
    });
    const loaded = await loadRuns(dir, { warn: false, cache: false });
    assert.equal(loaded.frame.height, rows.length);
    const results = join(dir, "results.jsonl");
    const warning = loaded.warnings.find((w) => w.includes("set aside"));
    assert.equal(
      warning,
      `${results}: 7 row(s) set aside, counted in no result: rows of another run: 2 (row 25, 31); rows of a model the run does not have: 1 (row 26); rows of a sample the run does not plan: 1 (row 27); rows of a suite or template the run does not plan: 1 (row 28); rows whose key is not the one their fields make: 1 (row 29); rows repeating a key of an earlier row: 1 (row 30)`,
    );
    const plain = await summarizeResultsText(results);
    assert.ok(plain.includes(`Warning: ${warning}`), plain);
    // The counted rows are the run's own: each model × template has 6.
    for (const model of ["m-good", "m-bad"]) {
      for (const template of ["direct", "cot"]) {
        assert.match(
          plain,
          new RegExp(
            `\\narithmetic\\s+${model}\\s+${template}\\s+\\?\\s+6\\s+0\\s+6\\s`,
          ),
        );
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
