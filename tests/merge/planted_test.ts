/**
 * `deno task merge` plants no row its plan does not hold: a row of an
 * unplanned key, of another shard's key, or whose key is not the one its
 * fields make is named and refused (exit 2), and nothing is created.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfig, runSweep } from "../../lib/mod.ts";
import { MergeInputError, mergeShards } from "../../lib/merge/mod.ts";
import { rowKey, shardOfKey } from "../../lib/runner/mod.ts";
import { SUITES } from "../../lib/suites/mod.ts";
import { runCli } from "../e2e/_cli.ts";

const COUNT = 2;

function config(outputDir: string) {
  return parseConfig({
    name: "planted",
    outputDir,
    cache: false,
    seed: 3,
    samples: 2,
    models: [{ name: "sim-strong", provider: "sim" }],
    suites: [{
      name: "arithmetic",
      params: { families: ["add", "mul"], digits: [3], count: 4 },
      templates: ["direct", "cot"],
    }],
  }, "inline");
}

interface Row {
  key: string;
  model: string;
  question_id: string;
  template: string;
  sample: number;
  [field: string]: unknown;
}

async function linesOf(dir: string): Promise<string[]> {
  return (await Deno.readTextFile(join(dir, "results.jsonl"))).split("\n")
    .filter((l) => l !== "");
}

/** Every file of the folders with its text. */
async function snapshot(dirs: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const dir of dirs) {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile) {
        out.set(
          join(dir, entry.name),
          await Deno.readTextFile(join(dir, entry.name)),
        );
      }
    }
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

const escape = (text: string) => text.replace(/[|/.()[\]\\]/g, "\\$&");

Deno.test("mergeShards() refuses rows its plan does not hold, naming their keys, and creates nothing", async (t) => {
  const base = await Deno.makeTempDir({ prefix: "merge_planted_" });
  try {
    const cfg = config(base);
    const dirs: string[] = [];
    for (let index = 1; index <= COUNT; index++) {
      const r = await runSweep(cfg, {
        progress: "none",
        shard: { index, count: COUNT },
        runDir: join(base, `shard${index}`),
      });
      dirs.push(r.runDir);
    }
    const [one, two] = dirs as [string, string];
    const good = await mergeShards(dirs, {
      suites: SUITES,
      out: join(base, "good"),
    });
    assert.equal(good.shards, COUNT);

    /** Shard 1 with its lines changed by `edit`; the merge must fail on `pattern`. */
    const refused = async (
      name: string,
      edit: (lines: string[]) => string[],
      pattern: RegExp,
    ) => {
      const copy = join(base, name);
      await Deno.mkdir(copy);
      await Deno.copyFile(
        join(one, "manifest.json"),
        join(copy, "manifest.json"),
      );
      await Deno.writeTextFile(
        join(copy, "results.jsonl"),
        edit(await linesOf(one)).map((l) => l + "\n").join(""),
      );
      const shards = [copy, two];
      const before = await snapshot(shards);
      const out = join(base, `${name}-merged`);
      await assert.rejects(
        mergeShards(shards, { suites: SUITES, out }),
        (e: unknown) => {
          assert.ok(e instanceof MergeInputError, String(e));
          assert.match(e.message, pattern);
          return true;
        },
      );
      assert.equal(await exists(out), false);
      const cli = await runCli("lib/cli/merge.ts", [...shards, "--out", out]);
      assert.equal(cli.code, 2, cli.stderr);
      assert.match(cli.stderr, pattern);
      assert.doesNotMatch(cli.stderr, /^ {4}at /m);
      assert.equal(await exists(out), false);
      assert.deepEqual(await snapshot(shards), before);
      const leftovers = [];
      for await (const e of Deno.readDir(base)) {
        if (e.name.startsWith(".")) leftovers.push(e.name);
      }
      assert.deepEqual(leftovers, []);
    };

    await t.step("a row of a key the config does not plan", async () => {
      const row = JSON.parse((await linesOf(one))[0]!) as Row;
      const sample = 7; // samples: 2
      const key = rowKey({
        model: row.model,
        question: row.question_id,
        template: row.template,
        sample,
      });
      await refused(
        "unplanned",
        (lines) => [...lines, JSON.stringify({ ...row, key, sample })],
        new RegExp(
          `1 key\\(s\\) are not planned by the shards' config: ${
            escape(key)
          } \\(in .*unplanned\\)`,
        ),
      );
    });

    await t.step("a row of another shard's key", async () => {
      const stolen = (await linesOf(two))[0]!;
      const key = (JSON.parse(stolen) as Row).key;
      assert.equal(shardOfKey(key, COUNT), 2);
      await refused(
        "foreign",
        (lines) => [...lines, stolen],
        new RegExp(
          `1 key\\(s\\) are in the wrong shard: ${
            escape(key)
          } \\(in .*foreign, shard 1/2; it belongs to shard 2\\)`,
        ),
      );
    });

    await t.step(
      "a row whose key is not the one its fields make (another question's row under this key)",
      async () => {
        const lines = await linesOf(one);
        const a = JSON.parse(lines[0]!) as Row;
        const b = JSON.parse(lines[lines.length - 1]!) as Row;
        assert.notEqual(a.key, b.key);
        await refused(
          "mismatched",
          (ls) => [JSON.stringify({ ...b, key: a.key }), ...ls.slice(1)],
          new RegExp(
            `1 row\\(s\\) have a key that their model, question_id, template and sample do not make: ${
              escape(a.key)
            } \\(in .*mismatched; its fields make ${escape(b.key)}\\)`,
          ),
        );
      },
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
