import assert from "node:assert/strict";
import { runSweep } from "../../lib/mod.ts";
import { startSimServer } from "../../lib/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import { e2eSuite, readRows, withTemp } from "./_setup.ts";
import { countRows, spawnSweep } from "./_cli.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("sweep CLI stops cleanly on Ctrl-C (exit 130), says how to resume, and the resume completes", () =>
  withTemp(async (dir) => {
    const { entry, ids } = await e2eSuite(100, 1);
    const server = await startSimServer({ latencyMs: 20 });
    try {
      const config = {
        name: "int",
        samples: 2,
        concurrency: 4,
        outputDir: `${dir}/out`,
        suites: [entry],
        models: [{
          name: "avg",
          provider: "openai",
          model: "sim-average",
          baseURL: server.baseURL,
        }],
      };
      await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(config));
      const runDir = `${dir}/out/run`;
      const child = spawnSweep([
        `${dir}/c.json`,
        "--run-dir",
        runDir,
        "--progress",
        "lines",
      ]);
      while ((await countRows(`${runDir}/results.jsonl`)) < 30) {
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill("SIGINT");
      const out = await child.output();
      assert.equal(out.code, 130);
      const stderr = text(out.stderr);
      const total = ids.length * 2;
      const match =
        /Interrupted: (\d+) of (\d+) rows saved in (\S+)\. Resume with: deno task sweep --resume (\S+)/
          .exec(stderr);
      assert.ok(match, stderr);
      assert.equal(Number(match[2]), total);
      assert.equal(match[3], runDir);
      assert.equal(match[4], runDir);
      const saved = await readRows(runDir);
      assert.equal(saved.length, Number(match[1]));
      assert.ok(saved.length < total);
      const manifest = await readManifest(runDir);
      assert.equal(manifest.interrupted, true);

      const resumed = await runSweep(manifest.config, {
        resume: runDir,
        progress: "none",
      });
      assert.equal(resumed.skipped, saved.length);
      const rows = await readRows(runDir);
      assert.equal(rows.length, total);
      assert.equal(new Set(rows.map((r) => r.key)).size, total);
    } finally {
      await server.close();
    }
  }));

Deno.test("sweep CLI prints bad flags and config errors without a stack trace and exits 2", () =>
  withTemp(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/bad.json`,
      JSON.stringify({
        models: [{ name: "x", provider: "openai" }],
        suites: [{ name: "arithmetic" }],
      }),
    );
    const [flag, config, missing] = await Promise.all([
      spawnSweep([`${dir}/bad.json`, "--progress", "sideways"]).output(),
      spawnSweep([`${dir}/bad.json`]).output(),
      spawnSweep(["--resume", `${dir}/nothing-here`]).output(),
    ]);
    assert.equal(flag.code, 2);
    assert.match(text(flag.stderr), /Cannot use --progress sideways/);
    assert.equal(config.code, 2);
    assert.match(text(config.stderr), /models\[0\]\.baseURL/);
    assert.equal(missing.code, 2);
    assert.match(
      text(missing.stderr),
      /Cannot use --resume .*: no such folder/,
    );
    for (const out of [flag, config, missing]) {
      assert.doesNotMatch(text(out.stderr), /\n\s+at /, "no stack trace");
    }
  }));
