/**
 * `deno task merge`: shards of one sweep become one run equal to the
 * unsharded sweep; every kind of bad input exits 2 (MergeInputError) and
 * writes nothing.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { loadRuns, parseConfig, runSweep } from "../../lib/mod.ts";
import { MergeInputError, mergeShards } from "../../lib/merge/mod.ts";
import { SUITES } from "../../lib/suites/mod.ts";
import { readManifest, verifiedCopy } from "../../lib/store/mod.ts";
import type { SweepConfig } from "../../lib/config/schema.ts";

const CLI = fileURLToPath(new URL("../../lib/cli/merge.ts", import.meta.url));

function config(outputDir: string, extra: Record<string, unknown> = {}) {
  return parseConfig({
    name: "mergeme",
    outputDir,
    cache: false,
    seed: 11,
    samples: 2,
    temperature: 0.7,
    models: [
      { name: "sim-strong", provider: "sim" },
      { name: "sim-weak", provider: "sim" },
    ],
    suites: [{
      name: "arithmetic",
      params: { families: ["add", "mul"], digits: [3, 5], count: 6 },
      templates: ["direct", "cot"],
    }],
    ...extra,
  }, "inline");
}

interface Row {
  key: string;
  run: string;
  status: string;
  extracted: string | null;
  response: string;
}

async function rows(dir: string): Promise<Row[]> {
  return (await Deno.readTextFile(join(dir, "results.jsonl"))).split("\n")
    .filter((l) => l !== "").map((l) => JSON.parse(l) as Row);
}

const essence = (r: Row) => [r.key, r.status, r.extracted, r.response];

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Copies a run folder's manifest and results. */
async function copyRun(from: string, to: string): Promise<string> {
  await Deno.mkdir(to, { recursive: true });
  for (const file of ["manifest.json", "results.jsonl"]) {
    await Deno.copyFile(join(from, file), join(to, file));
  }
  return to;
}

async function shards(
  cfg: SweepConfig,
  base: string,
  count: number,
  name = "shard",
): Promise<string[]> {
  const dirs: string[] = [];
  for (let index = 1; index <= count; index++) {
    const r = await runSweep(cfg, {
      progress: "none",
      shard: { index, count },
      runDir: join(base, `${name}${index}of${count}`),
    });
    dirs.push(r.runDir);
  }
  return dirs;
}

Deno.test("mergeShards() and deno task merge", async (t) => {
  const base = await Deno.makeTempDir({ prefix: "merge_test_" });
  try {
    const cfg = config(base);
    const whole = await runSweep(cfg, {
      progress: "none",
      runDir: join(base, "whole"),
    });
    const three = await shards(cfg, base, 3);

    await t.step("loadRuns() reads shard folders directly", async () => {
      const { frame } = await loadRuns(three, { warn: false, cache: false });
      assert.equal(frame.height, whole.total);
    });

    await t.step("merged rows equal the unsharded run's", async () => {
      const out = join(base, "merged");
      const result = await mergeShards([three[2]!, three[0]!, three[1]!], {
        suites: SUITES,
        out,
      });
      assert.equal(result.rows, whole.total);
      assert.equal(result.shards, 3);
      const merged = await rows(out);
      const want = (await rows(whole.runDir)).map(essence).sort();
      assert.deepEqual(merged.map(essence).sort(), want);
      assert.ok(merged.every((r) => r.run === "merged"));
      const manifest = await readManifest(out);
      assert.equal(manifest.shard, undefined);
      assert.equal(manifest.total, whole.total);
      assert.equal(manifest.counts.rows, whole.total);
      assert.equal(manifest.sessions.length, 3);
      assert.deepEqual(
        manifest.mergedFrom?.map((m) => m.shard.index),
        [1, 2, 3],
      );
      assert.deepEqual(manifest.config, (await readManifest(three[0]!)).config);

      // Like any run: the report reads it, resume finds nothing to do.
      const slow = await loadRuns(out, { warn: false, cache: false });
      const frame = slow.frame;
      assert.equal(frame.height, whole.total);
      // It has the CSV copy a sweep keeps, covering every row, and loadRuns
      // reads it: a read from the copy writes no Parquet cache (a whole-JSONL
      // read would), and gives the JSONL read's frame.
      assert.equal(
        (await verifiedCopy(join(out, "results.jsonl")))?.rows,
        whole.total,
      );
      const fast = await loadRuns(out, { warn: false });
      assert.equal(await exists(join(out, ".results.cache.parquet")), false);
      assert.deepEqual(fast.dims, slow.dims);
      const columns = frame.columns;
      assert.deepEqual([...fast.frame.columns].sort(), [...columns].sort());
      const same = fast.frame.select(...columns);
      assert.deepEqual(
        columns.map((c) => String(same.getColumn(c).dtype)),
        columns.map((c) => String(frame.getColumn(c).dtype)),
      );
      assert.deepEqual(same.toRecords(), frame.toRecords());
      const resumed = await runSweep(cfg, { progress: "none", resume: out });
      assert.equal(resumed.done, 0);
      assert.equal(resumed.skipped, whole.total);
      assert.equal(resumed.total, whole.total);
    });

    const refused = async (
      dirs: string[],
      pattern: RegExp,
      out = join(base, "never"),
    ) => {
      await assert.rejects(
        mergeShards(dirs, { suites: SUITES, out }),
        (e: unknown) => {
          assert.ok(e instanceof MergeInputError, String(e));
          assert.match(e.message, pattern);
          return true;
        },
      );
      assert.equal(await exists(join(base, "never")), false);
    };

    await t.step("a missing shard is named", async () => {
      await refused([three[0]!, three[2]!], /shard 2\/3 missing/);
    });

    await t.step("a shard given twice is named", async () => {
      // The same folder, spelled two ways: both arguments are named.
      await refused(
        [three[0]!, three[1]!, `${three[1]!}/./`],
        /the folder .* is given twice \(argument 2, .*, and argument 3, .*\/\.\/\), and its rows would be counted twice; give each shard folder once/,
      );
      // A copy of a shard's folder: the shard is named.
      const copy = join(base, "copy-of-2");
      await Deno.mkdir(copy);
      for await (const e of Deno.readDir(three[1]!)) {
        await Deno.copyFile(join(three[1]!, e.name), join(copy, e.name));
      }
      await refused([three[0]!, three[1]!, copy], /shard 2\/3 is given twice/);
      await Deno.remove(copy, { recursive: true });
    });

    await t.step("a shard of another split is refused", async () => {
      const two = await shards(cfg, base, 2);
      await refused(
        [three[0]!, three[1]!, two[1]!],
        /shard counts do not match/,
      );
    });

    await t.step(
      "a shard of another config is refused, naming the field",
      async () => {
        const other = await shards(
          config(base, { temperature: 0.2 }),
          base,
          3,
          "warm",
        );
        await refused(
          [three[0]!, three[1]!, other[2]!],
          /different sweeps \(config differs in temperature\)/,
        );
      },
    );

    await t.step("folders that are not shard runs are refused", async () => {
      const empty = await Deno.makeTempDir({ dir: base });
      await refused([empty, three[1]!, three[2]!], /not a run folder/);
      const file = join(base, "a-file");
      await Deno.writeTextFile(file, "x");
      await refused([file, three[1]!, three[2]!], /is a file/);
      await refused([whole.runDir], /holds a whole sweep, not a shard/);
      await refused([join(base, "nope")], /no such folder/);
    });

    await t.step("a missing key is named with the resume command", async () => {
      const cut = await copyRun(three[1]!, join(base, "cut"));
      const lines = (await Deno.readTextFile(join(cut, "results.jsonl")))
        .split("\n").filter((l) => l !== "");
      const lost = JSON.parse(lines[3]!).key as string;
      await Deno.writeTextFile(
        join(cut, "results.jsonl"),
        lines.filter((_, i) => i !== 3).map((l) => l + "\n").join(""),
      );
      await refused(
        [three[0]!, cut, three[2]!],
        new RegExp(
          `1 planned key\\(s\\) have no row: ${
            lost.replace(/[|/.]/g, "\\$&")
          }; .*--resume ${cut}`,
        ),
      );
    });

    await t.step("a key in two folders is named with both", async () => {
      const dup = await copyRun(three[1]!, join(base, "dup"));
      const stolen = (await Deno.readTextFile(join(three[0]!, "results.jsonl")))
        .split("\n")[0]!;
      await Deno.writeTextFile(join(dup, "results.jsonl"), stolen + "\n", {
        append: true,
      });
      const key = JSON.parse(stolen).key as string;
      await refused(
        [three[0]!, dup, three[2]!],
        new RegExp(
          `key\\(s\\) are in two shard folders: ${
            key.replace(/[|/.]/g, "\\$&")
          } \\(in ${three[0]} and ${dup}\\)`,
        ),
      );
    });

    await t.step("a garbage line is named", async () => {
      const bad = await copyRun(three[2]!, join(base, "bad"));
      const lines = (await Deno.readTextFile(join(bad, "results.jsonl")))
        .split("\n").filter((l) => l !== "");
      lines.splice(1, 0, "{not json");
      await Deno.writeTextFile(
        join(bad, "results.jsonl"),
        lines.map((l) => l + "\n").join(""),
      );
      await refused(
        [three[0]!, three[1]!, bad],
        /line 2 of .* not result rows/,
      );
    });

    await t.step("an existing --out is refused", async () => {
      await assert.rejects(
        mergeShards(three, { suites: SUITES, out: three[0]! }),
        /already exists; give a new folder/,
      );
    });

    await t.step(
      "the CLI exits 0 on good shards and 2 on bad input",
      async () => {
        const run = (args: string[]) =>
          new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "--allow-read",
              "--allow-write",
              "--allow-env",
              CLI,
              ...args,
            ],
            stdout: "piped",
            stderr: "piped",
          }).output();
        const out = join(base, "by-cli");
        const good = await run([...three, "--out", out]);
        assert.equal(
          good.code,
          0,
          new TextDecoder().decode(good.stderr),
        );
        assert.match(new TextDecoder().decode(good.stdout), /Merged 3 shards/);
        assert.equal((await rows(out)).length, whole.total);
        const bad = await run([three[0]!, "--out", join(base, "never")]);
        assert.equal(bad.code, 2);
        assert.match(
          new TextDecoder().decode(bad.stderr),
          /shard 2\/3, 3\/3 missing/,
        );
        assert.equal(await exists(join(base, "never")), false);
      },
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
