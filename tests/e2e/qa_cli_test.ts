/**
 * Bringing your own questions as a newcomer would: the shipped example
 * file and config, swept on the sim with `--by category`, then reported
 * with `--by category`: the closing table, the page and summary.csv break
 * the results down by the file's own column.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runCli } from "./_cli.ts";

Deno.test("the example dataset sweeps on the sim and breaks down by its category column in the table, the report and summary.csv", async () => {
  const out = await Deno.makeTempDir({ prefix: "qa-cli-" });
  try {
    const config = JSON.parse(
      await Deno.readTextFile(join(ROOT, "data/configs/qa.json")),
    );
    config.outputDir = out;
    config.suites[0].params.dataset = join(ROOT, "data/qa/example.csv");
    await Deno.writeTextFile(join(out, "c.json"), JSON.stringify(config));
    const sweep = await runCli("lib/cli/sweep.ts", [
      join(out, "c.json"),
      "--run-dir",
      join(out, "run"),
      "--progress",
      "none",
      "--by",
      "category",
    ]);
    assert.equal(sweep.code, 0, sweep.stderr);
    assert.match(sweep.stdout, /\nqa\s+sim-strong\s+12\s+12\s+0\s+12\s/);
    assert.match(
      sweep.stdout,
      /By category:\nsuite\s+model\s+category\s+n\s+accuracy[^\n]*\nqa\s+sim-strong\s+addition\s+1\s/,
    );
    const report = await runCli("lib/cli/report.ts", [
      join(out, "run"),
      "--by",
      "category",
    ]);
    assert.equal(report.code, 0, report.stderr);
    const page = await Deno.readTextFile(join(out, "run", "report.html"));
    assert.match(page, /<h2>By category<\/h2>/);
    assert.match(page, /qa: accuracy by category/);
    const csv = await Deno.readTextFile(join(out, "run", "summary.csv"));
    assert.match(csv.split("\n")[0]!, /^model,suite,template,category,n,/);
    assert.match(csv, /\nsim-strong,qa,direct,multiplication,3,/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
