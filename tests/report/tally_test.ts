/**
 * The sweep's closing summary is counted without Polars; it must be the
 * same text as the report's Polars summary of the same run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  loadRuns,
  summarizeResultsText,
  SummaryTally,
  summaryText,
} from "../../lib/report/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";

async function bothWays(dir: string): Promise<[string, string]> {
  const { frame } = await loadRuns([dir], { warn: false });
  const templates = new Set(frame.getColumn("template").toArray()).size;
  const polars = summaryText(
    frame,
    templates > 1 ? ["suite", "model", "template"] : ["suite", "model"],
  );
  return [await summarizeResultsText(join(dir, "results.jsonl")), polars];
}

Deno.test("the closing summary equals the report's summary (several templates, errors, parse errors, unscored rows)", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const rows = fakeRows({ models: ["m-good", "m-bad", "中文模型"], seed: 7 });
    // Unscored rows (no answer key) are left out by both; one group is
    // unscored throughout and must vanish from both tables.
    for (const row of rows.slice(0, 30)) {
      row.status = "unscored";
      row.correct = false;
    }
    rows.push(
      ...fakeRows({ models: ["all-unscored"], questions: 3, seed: 2 }).map(
        (r) => ({ ...r, status: "unscored" as const, correct: false }),
      ),
    );
    const dir = await writeFakeRun(tmp, "several", rows);
    const [plain, polars] = await bothWays(dir);
    assert.equal(plain, polars);
    assert.match(plain, /^suite\s+model\s+template\s+n\s+accuracy/);
    assert.doesNotMatch(plain, /all-unscored/);
    // 3 models × 2 templates.
    assert.equal(plain.split("\n").length, 1 + 6);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the closing summary equals the report's summary (one template: no template column)", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const rows = fakeRows({ templates: ["direct"], questions: 57, seed: 3 });
    const dir = await writeFakeRun(tmp, "one", rows);
    const [plain, polars] = await bothWays(dir);
    assert.equal(plain, polars);
    assert.doesNotMatch(plain.split("\n")[0]!, /template/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the tally's interval is Wilson's and its rates count what summarize counts", () => {
  const tally = new SummaryTally(["model"]);
  for (let i = 0; i < 10; i++) {
    tally.add({
      model: "m",
      status: i < 7 ? "correct" : i < 9 ? "wrong" : "error",
      correct: i < 7,
      format_valid: i !== 8,
    });
  }
  const [line] = tally.lines();
  assert.equal(line?.n, 10);
  assert.equal(line?.accuracy, 0.7);
  assert.equal(line?.errorRate, 0.1);
  assert.equal(line?.formatValidRate, 0.9);
  // Wilson 95% for 7/10: [0.3968, 0.8922].
  assert.ok(Math.abs(line!.lo - 0.39678) < 1e-4, String(line?.lo));
  assert.ok(Math.abs(line!.hi - 0.89224) < 1e-4, String(line?.hi));
});
