import assert from "node:assert/strict";
import {
  BatchInputError,
  exportRequests,
  importOutput,
} from "../../lib/batch/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import {
  assertSameRows,
  onlineRows,
  rowsByKey,
  runBatchLikeVllm,
  SUITES,
  withSweep,
} from "./_setup.ts";

Deno.test("exportRequests() + importOutput(): an offline batch round trip gives the online rows", () =>
  withSweep({}, async ({ config, dir, baseURL }) => {
    const online = await onlineRows(config);
    const exported = await exportRequests(config, `${dir}/requests.jsonl`, {
      suites: SUITES,
    });
    assert.equal(exported.requests, online.size);
    assert.deepEqual(exported.perModel, {
      "sim-average": 16,
      "sim-chatty": 16,
    });
    const first = JSON.parse(
      (await Deno.readTextFile(exported.path)).split("\n")[0]!,
    );
    assert.deepEqual(Object.keys(first), [
      "custom_id",
      "method",
      "url",
      "body",
    ]);
    assert.ok(online.has(first.custom_id));
    const answered = await runBatchLikeVllm(
      baseURL,
      exported.path,
      `${dir}/results.jsonl`,
    );
    assert.equal(answered, online.size);
    const imported = await importOutput(
      { config },
      `${dir}/results.jsonl`,
      { suites: SUITES },
    );
    assert.equal(imported.counts.written, online.size);
    assertSameRows(await rowsByKey(imported.runDir), online);
    // Into the same run again: nothing new.
    const again = await importOutput(
      { runDir: imported.runDir },
      `${dir}/results.jsonl`,
      { suites: SUITES },
    );
    assert.equal(again.counts.written, 0);
    assert.equal(again.counts.skipped, online.size);
  }));

Deno.test("importOutput() refuses an output file of another run and a corrupted line, naming the line, and writes nothing", () =>
  withSweep({}, async ({ config, dir, baseURL }) => {
    const other = SweepConfigSchema.parse({
      ...config,
      seed: 99,
      suites: [{
        name: "arithmetic",
        params: { families: ["sub"], digits: [3], count: 2 },
      }],
    });
    await exportRequests(other, `${dir}/other.jsonl`, { suites: SUITES });
    await runBatchLikeVllm(
      baseURL,
      `${dir}/other.jsonl`,
      `${dir}/other-out.jsonl`,
    );
    await assert.rejects(
      importOutput({ config }, `${dir}/other-out.jsonl`, { suites: SUITES }),
      (error: Error) => {
        assert.ok(error instanceof BatchInputError);
        assert.match(
          error.message,
          /other-out\.jsonl: 8 line\(s\) are not requests of this config .*: line 1 \(custom_id "sim-average\|/,
        );
        assert.match(error.message, /and 3 more; nothing was imported/);
        return true;
      },
    );
    await exportRequests(config, `${dir}/requests.jsonl`, { suites: SUITES });
    await runBatchLikeVllm(
      baseURL,
      `${dir}/requests.jsonl`,
      `${dir}/out.jsonl`,
    );
    const lines = (await Deno.readTextFile(`${dir}/out.jsonl`)).split("\n");
    lines[2] = lines[2]!.slice(0, 40);
    await Deno.writeTextFile(`${dir}/torn.jsonl`, lines.join("\n"));
    await assert.rejects(
      importOutput({ config }, `${dir}/torn.jsonl`, { suites: SUITES }),
      /torn\.jsonl: line 3 is not valid JSON/,
    );
    // Nothing was created for the refused files: no run folder at all.
    await assert.rejects(Deno.stat(config.outputDir), Deno.errors.NotFound);
  }));
