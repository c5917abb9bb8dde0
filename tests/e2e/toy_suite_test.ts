/**
 * Adding a suite is one folder and one registry line: a toy suite defined
 * in one fixture file (tests/fixtures/toy_suite.ts) is swept, stored,
 * loaded, summarised and shown in the HTML report with its declared dims,
 * and nothing else in the project was touched for it.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { parseConfig as parseWith } from "../../lib/config/mod.ts";
import { runSweep } from "../../lib/runner/mod.ts";
import { loadRuns, renderReport, summarize } from "../../lib/report/mod.ts";
import { SUITES } from "../../lib/suites/mod.ts";
import { toySuite } from "../fixtures/toy_suite.ts";

// The "one registry line": the registry plus the toy suite.
const REGISTRY = [toySuite, ...SUITES];

Deno.test("a toy suite from one fixture file is swept, stored, loaded, summarised and reported with its declared dims", async () => {
  const out = await Deno.makeTempDir();
  try {
    const config = parseWith(
      {
        outputDir: out,
        cache: false,
        models: [{ name: "sim-strong", provider: "sim" }, {
          name: "sim-weak",
          provider: "sim",
        }],
        suites: [{ name: "toy", params: { count: 12 } }, {
          name: "arithmetic",
          params: { families: ["add"], digits: [2], count: 3 },
        }],
      },
      "toy-test",
      REGISTRY,
    );
    const result = await runSweep(config, {
      suites: REGISTRY,
      progress: "none",
    });
    assert.equal(result.done, 2 * (12 * 2 + 3));
    const loaded = await loadRuns(result.runDir, { warn: false });
    const toy = loaded.frame.filter(pl.col("suite").eq(pl.lit("toy")));
    assert.equal(toy.height, 2 * 12 * 2);
    // Declared dims and the suite's metrics are columns.
    for (const col of ["digits", "bucket", "toy_len"]) {
      assert.ok(loaded.frame.columns.includes(col), col);
    }
    const statuses = new Set(toy.getColumn("status").toArray());
    assert.ok(statuses.has("correct") && statuses.has("wrong"));
    const summary = summarize(toy, ["model", "template"]);
    assert.equal(summary.height, 4);
    const html = await renderReport(loaded, "toy", REGISTRY);
    assert.match(html, /Parity of a number/);
    assert.match(html, /toy digit count/);
    assert.match(html, /toy fizz bucket/);
    assert.match(html, /Toy parity corner/);
    assert.match(html, /shout/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
