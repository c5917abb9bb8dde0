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
  const { frame, runs } = await loadRuns([dir], { warn: false });
  const templates = new Set(frame.getColumn("template").toArray()).size;
  const polars = await summaryText(
    frame,
    templates > 1 ? ["suite", "model", "template"] : ["suite", "model"],
    { manifest: runs[0]!.manifest, runDir: dir },
  );
  return [await summarizeResultsText(join(dir, "results.jsonl")), polars];
}

/** The table's lines, without the warnings and notes after it. */
const tableLines = (text: string) =>
  text.split("\n").filter((l) => !/^(Warning|Note): /.test(l));

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
    assert.match(
      plain,
      /^suite\s+model\s+template\s+planned\s+stored\s+error rows\s+n\s+accuracy/,
    );
    // The unscored group has no statistics, but its stored rows are shown.
    assert.match(
      plain,
      /\narithmetic\s+all-unscored\s+direct\s+\?\s+3\s+0\s+0\s+-\s+\[-, -\]\s+-\s+-\n/,
    );
    // 4 models × 2 templates; the fake manifest plans nothing it can tell.
    assert.equal(tableLines(plain).length, 1 + 8);
    assert.match(plain, /\nWarning: \d+ error rows: /);
    assert.match(
      plain,
      /\nNote: Rows planned per suite and model are not shown: /,
    );
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
    assert.equal(tableLines(plain).length, 1 + 2);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the tally's interval is Wilson's and its rates count what summarize counts", async () => {
  const tally = new SummaryTally(["model"]);
  for (let i = 0; i < 10; i++) {
    tally.add({
      model: "m",
      status: i < 7 ? "correct" : i < 9 ? "wrong" : "error",
      correct: i < 7,
      format_valid: i !== 8,
    });
  }
  const [line] = await tally.lines();
  assert.equal(line?.n, 10);
  assert.equal(line?.errorRate, 0.1);
  const [accuracy, format] = line!.metrics.map((m) => m.value);
  assert.equal(accuracy?.value, 0.7);
  assert.equal(format?.value, 0.9);
  // Wilson 95% for 7/10: [0.3968, 0.8922].
  assert.ok(Math.abs(accuracy!.lo! - 0.39678) < 1e-4, String(accuracy?.lo));
  assert.ok(Math.abs(accuracy!.hi! - 0.89224) < 1e-4, String(accuracy?.hi));
});

Deno.test("the closing summary equals the report's summary for a run missing rows, planned per template", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    // fakeRows(): 40 questions × m-good, m-bad × direct, cot; 20 rows lost.
    const rows = fakeRows().filter((r, i) =>
      !(r.model === "m-bad" && r.template === "cot" && i < 80)
    );
    assert.equal(rows.length, 160 - 20);
    const dir = await writeFakeRun(tmp, "missing", rows, {
      run: "fake",
      config: {
        models: [{ name: "m-good" }, { name: "m-bad" }],
        samples: 1,
        suites: [{ name: "arithmetic", templates: ["direct", "cot"] }],
      },
      questions: { arithmetic: 40 },
      total: 160,
      counts: { rows: 160, errors: 0, cached: 0 },
      interrupted: false,
    });
    const [plain, polars] = await bothWays(dir);
    assert.equal(plain, polars);
    assert.match(plain, /\narithmetic\s+m-bad\s+cot\s+40\s+20\s+/);
    assert.match(plain, /\narithmetic\s+m-good\s+cot\s+40\s+40\s+/);
    assert.match(
      plain,
      /\nWarning: Incomplete: 140 of 160 planned rows are stored \(20 missing\)\. The manifest counted 160 rows stored: 20 have gone from results\.jsonl since\./,
    );
    assert.doesNotMatch(plain, /Note:/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
