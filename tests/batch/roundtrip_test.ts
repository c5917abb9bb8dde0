import assert from "node:assert/strict";
import {
  collectBatches,
  resubmitBatches,
  submitBatches,
} from "../../lib/batch/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import {
  assertSameRows,
  onlineRows,
  rowsByKey,
  SUITES,
  waitAll,
  withSweep,
} from "./_setup.ts";

Deno.test("submitBatches() + collectBatches(): a batch run's rows equal the same sweep run online", () =>
  withSweep({ batch: { stepMs: 40 } }, async ({ config }) => {
    const online = await onlineRows(config);
    assert.equal(online.size, 2 * 8 * 2);
    // 16 keys per model split at 5 lines: 4 files per model.
    const submitted = await submitBatches(config, {
      suites: SUITES,
      maxLines: 5,
    });
    assert.equal(submitted.requests, online.size);
    assert.equal(submitted.batches.length, 8);
    const manifest = await readManifest(submitted.runDir);
    assert.equal(manifest.batches?.length, 8);
    assert.ok(manifest.batches?.every((b) => b.batchId.startsWith("batch_")));
    const seen = await waitAll(submitted.runDir);
    assert.ok(seen.includes("completed"), seen.join());
    assert.ok(submitted.batches.every((b) => b.status === "validating"));
    const first = await collectBatches(submitted.runDir, { suites: SUITES });
    assert.equal(first.counts.written, online.size);
    assert.equal(first.missing, 0);
    const rows = await rowsByKey(submitted.runDir);
    assertSameRows(rows, online);
    assert.ok([...rows.values()].some((r) => r.correct === false));
    // Idempotent: a second collect writes nothing.
    const again = await collectBatches(submitted.runDir, { suites: SUITES });
    assert.equal(again.counts.written, 0);
    assert.equal(again.counts.skipped, online.size);
    const text = await Deno.readTextFile(`${submitted.runDir}/results.jsonl`);
    assert.equal(text.trim().split("\n").length, online.size);
  }));

Deno.test("resubmitBatches() sends failed lines again; the full set then equals online", () =>
  withSweep(
    { seed: 2, batch: { stepMs: 20, failureRate: 0.3 } },
    async ({ config }) => {
      const online = await onlineRows(config);
      const { runDir } = await submitBatches(config, { suites: SUITES });
      await waitAll(runDir);
      const first = await collectBatches(runDir, { suites: SUITES });
      assert.ok(first.counts.errors > 0, "some lines failed");
      assert.equal(first.missing, first.counts.errors);
      const errorRow = [...(await rowsByKey(runDir)).values()].find((r) =>
        r.status === "error"
      )!;
      assert.equal(errorRow.error_kind, "server");
      let sent = 0;
      for (let round = 0; round < 8; round++) {
        const result = await resubmitBatches(runDir, { suites: SUITES });
        if (result.requests === 0) break;
        sent += result.requests;
        // Only the missing keys go out again.
        assert.ok(result.requests <= first.counts.errors);
        await waitAll(runDir);
      }
      const last = await collectBatches(runDir, { suites: SUITES });
      assert.equal(last.missing, 0);
      assert.ok(sent >= first.counts.errors);
      assertSameRows(await rowsByKey(runDir), online);
    },
  ));

Deno.test("collectBatches() turns an expired batch's unfinished lines into timeout rows; resubmit sends only those", () =>
  withSweep(
    { batch: { stepMs: 30, expireAfterMs: 45 } },
    async ({ config }) => {
      const { runDir } = await submitBatches(config, { suites: SUITES });
      const seen = await waitAll(runDir);
      assert.equal(seen.at(-1), "expired");
      const collected = await collectBatches(runDir, { suites: SUITES });
      const rows = [...(await rowsByKey(runDir)).values()];
      const expired = rows.filter((r) => r.error_kind === "timeout");
      assert.ok(expired.length > 0 && expired.length < rows.length);
      assert.match(String(expired[0]!.error_message), /batch_expired/);
      assert.equal(collected.missing, expired.length);
    },
  ));

Deno.test("submitBatches() splits request files at the byte limit and refuses a line over it", () =>
  withSweep({ batch: { stepMs: 10_000 } }, async ({ config }) => {
    const { runDir, batches, requests } = await submitBatches(config, {
      suites: SUITES,
      maxBytes: 3000,
    });
    assert.ok(batches.length > 2, String(batches.length));
    assert.equal(batches.reduce((n, b) => n + b.requests, 0), requests);
    for (const b of batches) {
      const bytes = (await Deno.readFile(`${runDir}/${b.file}`)).length;
      assert.ok(bytes <= 3000, `${b.file}: ${bytes}`);
    }
    const before = [...Deno.readDirSync(config.outputDir)].length;
    await assert.rejects(
      submitBatches(config, { suites: SUITES, maxBytes: 100 }),
      /over the 100-byte file limit/,
    );
    assert.equal(
      [...Deno.readDirSync(config.outputDir)].length,
      before,
      "no folder made",
    );
  }));
