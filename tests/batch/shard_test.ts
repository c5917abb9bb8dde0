/**
 * Batch commands on one shard of a sweep (`manifest.shard`, `--shard i/n`):
 * the plan is the shard's keys, an import into a shard run takes only
 * them and refuses another shard's lines by name, writing nothing, and
 * batch shards merge like the sweep's.
 */
import assert from "node:assert/strict";
import {
  BatchInputError,
  collectBatches,
  exportRequests,
  importOutput,
  submitBatches,
} from "../../lib/batch/mod.ts";
import { mergeShards } from "../../lib/merge/mod.ts";
import { runSweep } from "../../lib/mod.ts";
import { shardOfKey } from "../../lib/runner/mod.ts";
import { readManifest, rewriteResults } from "../../lib/store/mod.ts";
import { runCli } from "../e2e/_cli.ts";
import {
  assertSameRows,
  onlineRows,
  rowsByKey,
  runBatchLikeVllm,
  SUITES,
  waitAll,
  withSweep,
} from "./_setup.ts";

/** Every file under a folder with its bytes, to see that nothing changed. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else out.set(path, await Deno.readTextFile(path));
    }
  };
  await walk(dir);
  return out;
}

/** The request keys of a request or output file, in file order. */
async function customIds(path: string): Promise<string[]> {
  return (await Deno.readTextFile(path)).split("\n").filter((l) => l !== "")
    .map((l) => JSON.parse(l).custom_id as string);
}

const escape = (text: string) => text.replace(/[|/.()[\]\\]/g, "\\$&");

Deno.test("importOutput() into a shard run takes only that shard's keys; other shards' lines are named and refused, nothing written", () =>
  withSweep({}, async ({ config, dir, baseURL }) => {
    const shard = { index: 2, count: 3 };
    const { runDir } = await runSweep(config, {
      progress: "none",
      shard,
      runDir: `${dir}/shard2`,
    });
    const want = await rowsByKey(runDir);
    const own = new Set(want.keys());
    // The shard's rows are to come from a batch: the run has none yet.
    await rewriteResults(`${runDir}/results.jsonl`, []);

    await exportRequests(config, `${dir}/all.jsonl`, { suites: SUITES });
    await runBatchLikeVllm(baseURL, `${dir}/all.jsonl`, `${dir}/all-out.jsonl`);
    const ids = await customIds(`${dir}/all-out.jsonl`);
    assert.ok(own.size > 0 && own.size < ids.length, "the shard is a part");
    const foreign = ids.flatMap((id, i) =>
      own.has(id) ? [] : [{ id, line: i + 1 }]
    );
    const first = foreign[0]!;
    const named = new RegExp(
      `all-out\\.jsonl: ${foreign.length} line\\(s\\) are requests of other shards of its sweep, not of shard 2/3 that this run .*shard2 holds: line ${first.line} \\(custom_id "${
        escape(first.id)
      }", shard ${shardOfKey(first.id, 3)}/3\\), .* and ${
        foreign.length - 5
      } more; nothing was imported\\. .*--shard 2/3`,
    );
    const before = await snapshot(runDir);

    await assert.rejects(
      importOutput({ runDir }, `${dir}/all-out.jsonl`, { suites: SUITES }),
      (error: Error) => {
        assert.ok(error instanceof BatchInputError, String(error));
        assert.match(error.message, named);
        return true;
      },
    );
    assert.deepEqual(await snapshot(runDir), before);

    // The CLI: exit 2, the same message, no stack trace, nothing written.
    const cli = await runCli("lib/cli/batch.ts", [
      "import",
      runDir,
      `${dir}/all-out.jsonl`,
    ]);
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(cli.stderr, named);
    assert.doesNotMatch(cli.stderr, /^ {4}at /m);
    assert.deepEqual(await snapshot(runDir), before);

    // A run keeps its shard: another --shard is refused, as is --shard on a run command.
    const other = await runCli("lib/cli/batch.ts", [
      "import",
      runDir,
      `${dir}/all-out.jsonl`,
      "--shard",
      "1/3",
    ]);
    assert.equal(other.code, 2, other.stderr);
    assert.match(
      other.stderr,
      /Cannot import into .*shard2 as shard 1\/3: the run holds shard 2\/3; leave out --shard/,
    );
    assert.doesNotMatch(other.stderr, /^ {4}at /m);
    const collect = await runCli("lib/cli/batch.ts", [
      "collect",
      runDir,
      "--shard",
      "2/3",
    ]);
    assert.equal(collect.code, 2, collect.stderr);
    assert.match(collect.stderr, /Cannot use --shard with batch collect/);
    assert.deepEqual(await snapshot(runDir), before);

    // The shard's own requests (export --shard) import whole.
    await exportRequests(config, `${dir}/two.jsonl`, {
      suites: SUITES,
      shard,
    });
    assert.deepEqual(new Set(await customIds(`${dir}/two.jsonl`)), own);
    await runBatchLikeVllm(baseURL, `${dir}/two.jsonl`, `${dir}/two-out.jsonl`);
    const imported = await importOutput({ runDir }, `${dir}/two-out.jsonl`, {
      suites: SUITES,
    });
    assert.equal(imported.counts.written, own.size);
    assert.equal(imported.total, own.size);
    assertSameRows(await rowsByKey(runDir), want);
    const manifest = await readManifest(runDir);
    assert.deepEqual(manifest.shard, shard);
    assert.equal(manifest.counts.rows, own.size);
  }));

Deno.test("submitBatches() with a shard sends only its keys, collectBatches() finds none missing, and the shards merge into the online run", () =>
  withSweep({ batch: { stepMs: 10 } }, async ({ config, dir }) => {
    const online = await onlineRows(config);
    const count = 3;
    const dirs: string[] = [];
    let sent = 0;
    for (let index = 1; index <= count; index++) {
      const submitted = await submitBatches(config, {
        suites: SUITES,
        shard: { index, count },
      });
      const keys = (await Promise.all(
        submitted.batches.map((b) =>
          customIds(`${submitted.runDir}/${b.file}`)
        ),
      )).flat();
      assert.ok(keys.every((k) => shardOfKey(k, count) === index));
      assert.equal(keys.length, submitted.requests);
      sent += submitted.requests;
      const manifest = await readManifest(submitted.runDir);
      assert.deepEqual(manifest.shard, { index, count });
      assert.equal(manifest.total, submitted.requests);
      await waitAll(submitted.runDir);
      const collected = await collectBatches(submitted.runDir, {
        suites: SUITES,
      });
      assert.equal(collected.total, submitted.requests);
      assert.equal(collected.missing, 0);
      assert.equal(collected.counts.written, submitted.requests);
      dirs.push(submitted.runDir);
    }
    assert.equal(sent, online.size);
    const merged = await mergeShards(dirs, {
      suites: SUITES,
      out: `${dir}/merged`,
    });
    assert.equal(merged.rows, online.size);
    assertSameRows(await rowsByKey(`${dir}/merged`), online);
  }));
