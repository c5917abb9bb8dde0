/**
 * One accuracy rule: the per-model summary (`summarizeResults`, counted
 * by the same tally as the sweep's closing table), the report and the
 * notebooks (`summarize`) print the same numbers for
 * the same run, with failed requests (counted as not correct) and
 * unscored rows (left out) in it.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { parseConfig } from "../../lib/mod.ts";
import { runSweep } from "../../lib/runner/mod.ts";
import { loadRuns, summarize, summarizeResults } from "../../lib/report/mod.ts";
import { createProvider } from "../../lib/providers/mod.ts";
import { SUITES } from "../../lib/suites/mod.ts";

Deno.test("the sweep summary and the report's summarize() give the same n and accuracy per model", async () => {
  const out = await Deno.makeTempDir();
  try {
    const config = parseConfig({
      outputDir: out,
      cache: false,
      models: [{ name: "sim-strong", provider: "sim" }, {
        name: "sim-weak",
        provider: "sim",
      }],
      suites: [
        {
          name: "arithmetic",
          params: { families: ["mul"], digits: [3, 6], count: 10 },
        },
        {
          name: "ceval",
          params: { split: "test", shots: 0, limit: 5 },
          templates: ["answer_only"],
        },
      ],
    }, "accuracy-test");
    let calls = 0;
    const { runDir } = await runSweep(config, {
      suites: SUITES,
      progress: "none",
      // Every seventh request fails for good: error rows in the run.
      createProvider: (model, sweep, options) => {
        const inner = createProvider(model, sweep, options);
        return {
          name: inner.name,
          complete: (prompt, options) =>
            ++calls % 7 === 0
              ? Promise.resolve({
                text: "",
                reasoning: null,
                finishReason: "error",
                usage: { promptTokens: 0, completionTokens: 0 },
                latencyMs: 0,
                attempts: 1,
                error: { kind: "server", message: "injected 500" },
              })
              : inner.complete(prompt, options),
        };
      },
    });
    const sweepSummary = await summarizeResults(`${runDir}/results.jsonl`);
    const { frame } = await loadRuns(runDir, { warn: false });
    const statuses = new Set(frame.getColumn("status").toArray());
    assert.ok(statuses.has("error") && statuses.has("unscored"));
    const report = summarize(frame, ["model"]).toRecords();
    for (const line of sweepSummary) {
      const same = report.find((r) => r["model"] === line.model);
      assert.ok(same !== undefined, line.model);
      assert.equal(line.accuracy, same["accuracy"], line.model);
      const rows = frame.filter(pl.col("model").eq(pl.lit(line.model)));
      assert.equal(line.n, rows.height, line.model);
      assert.equal(
        line.errors,
        rows.filter(pl.col("status").eq(pl.lit("error"))).height,
      );
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
