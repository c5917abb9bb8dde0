/**
 * A kill at the start of a sweep never leaves a run folder without a
 * manifest that cannot be handled: new folders appear with their manifest
 * (made under a temporary name, then renamed), and a folder without one
 * (an older version, a folder made by hand) is restarted in place or its
 * rows resumed when the config is given with `--run-dir`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfig, runSweep } from "../../lib/mod.ts";
import { createRunDir, readManifest } from "../../lib/store/mod.ts";
import { runCli, spawnSweep } from "./_cli.ts";
import { readRows, withTemp } from "./_setup.ts";

const MODELS = [{ name: "sim-strong", provider: "sim" }];
const SUITE = {
  name: "arithmetic",
  params: { families: ["add"], digits: [2], count: 3 },
};

/** The config of the small sweep writing to `dir`, as in a config file. */
function configJson(dir: string, models: unknown[] = MODELS) {
  return { outputDir: dir, cache: false, models, suites: [SUITE] };
}

function configIn(dir: string, models: unknown[] = MODELS) {
  return parseConfig(configJson(dir, models), "kill-at-start");
}

Deno.test("createRunDir() never shows a folder whose init was cut short, and clears stale temporary folders", () =>
  withTemp(async (base) => {
    const date = new Date("2026-11-30T20:00:00Z");
    // A kill inside init (after the folder was made, before the manifest
    // was whole) is an exception here: nothing appears under a final name.
    await assert.rejects(
      createRunDir(base, "k", {
        date,
        init: async (dir) => {
          await Deno.writeTextFile(join(dir, "manifest.json"), '{"ha');
          throw new Error("killed");
        },
      }),
      /killed/,
    );
    assert.deepEqual([...Deno.readDirSync(base)], []);
    // What a real kill leaves: a hidden temporary folder. An old one is
    // removed by the next run; a recent one (a sweep starting now) is kept.
    const stale = join(base, ".k-20261130-195000.partial-123-abcdef12");
    const recent = join(base, ".k-20261130-200000.partial-124-abcdef12");
    await Deno.mkdir(stale);
    await Deno.mkdir(recent);
    const old = new Date(Date.now() - 10 * 60_000);
    await Deno.utime(stale, old, old);
    const dir = await createRunDir(base, "k", {
      date,
      init: (d, run) =>
        Deno.writeTextFile(join(d, "manifest.json"), JSON.stringify({ run })),
    });
    const names = [...Deno.readDirSync(base)].map((e) => e.name).sort();
    assert.deepEqual(names, [
      ".k-20261130-200000.partial-124-abcdef12",
      "k-20261130-200000",
    ]);
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(join(dir, "manifest.json"))),
      { run: "k-20261130-200000" },
    );
  }));

Deno.test("runSweep(): a --run-dir a kill left without manifest or rows restarts in place and says so", () =>
  withTemp(async (base) => {
    const runDir = join(base, "r");
    await Deno.mkdir(runDir);
    // A torn first line is not a row.
    await Deno.writeTextFile(join(runDir, "results.jsonl"), '{"key":"sim');
    const result = await runSweep(configIn(base), {
      progress: "none",
      runDir,
    });
    assert.match(
      result.warnings[0]!,
      /had no manifest and no rows.*restarting in place/,
    );
    assert.equal(result.done, result.total);
    assert.equal(result.skipped, 0);
    assert.equal((await readManifest(runDir)).run, "r");
    assert.equal((await readRows(runDir)).length, result.total);
  }));

Deno.test("runSweep(): a --run-dir without manifest but with rows resumes them with the config given; rows outside its plan are refused", () =>
  withTemp(async (base) => {
    const config = configIn(base);
    const first = await runSweep(config, { progress: "none" });
    const rows = await readRows(first.runDir);
    // A folder whose manifest is gone, holding two of the rows.
    await Deno.remove(join(first.runDir, "manifest.json"));
    await Deno.writeTextFile(
      join(first.runDir, "results.jsonl"),
      rows.slice(0, 2).map((r) => JSON.stringify(r) + "\n").join(""),
    );
    // Another model's config does not plan those rows: refused, unchanged.
    await assert.rejects(
      runSweep(configIn(base, [{ name: "sim-weak", provider: "sim" }]), {
        progress: "none",
        runDir: first.runDir,
      }),
      /Cannot resume the rows in .* with this config: 2 of the 2 stored rows are not in its plan.*give the config the run was started with/,
    );
    await assert.rejects(
      Deno.stat(join(first.runDir, "manifest.json")),
      Deno.errors.NotFound,
    );
    const again = await runSweep(config, {
      progress: "none",
      runDir: first.runDir,
    });
    assert.match(
      again.warnings[0]!,
      /had no manifest but 2 stored row\(s\): resuming them with the config given/,
    );
    assert.equal(again.skipped, 2);
    assert.equal(again.done, first.total - 2);
    const keys = (await readRows(first.runDir)).map((r) => r.key);
    assert.deepEqual(keys.toSorted(), rows.map((r) => r.key).toSorted());
  }));

Deno.test("sweep CLI: --resume of a folder without manifest exits 2, says to give the config with --run-dir only when it holds rows, which restarts it", () =>
  withTemp(async (base) => {
    const runDir = join(base, "r");
    await Deno.mkdir(runDir);
    const resume = await runCli("lib/cli/sweep.ts", [
      "--resume",
      runDir,
      "--progress",
      "none",
    ]);
    assert.equal(resume.code, 2, resume.stderr);
    // An empty folder is not a run: no advice to make it one.
    assert.match(
      resume.stderr,
      /Cannot use --resume .*r: it is not a run folder \(no manifest\.json, no results\.jsonl\)/,
    );
    assert.doesNotMatch(resume.stderr, /--run-dir/);
    assert.deepEqual([...Deno.readDirSync(runDir)], []);
    // A folder with rows lost its manifest: the config restarts it.
    await Deno.writeTextFile(join(runDir, "results.jsonl"), "");
    const again = await runCli("lib/cli/sweep.ts", [
      "--resume",
      runDir,
      "--progress",
      "none",
    ]);
    assert.equal(again.code, 2, again.stderr);
    assert.match(
      again.stderr,
      /Cannot read the manifest of .*r: it has results\.jsonl but no manifest .*deno task sweep <config\.json> --run-dir .*r restarts it in place/,
    );
    await Deno.writeTextFile(
      join(base, "c.json"),
      JSON.stringify(configJson(base)),
    );
    const restart = await runCli("lib/cli/sweep.ts", [
      join(base, "c.json"),
      "--run-dir",
      runDir,
      "--progress",
      "none",
    ]);
    assert.equal(restart.code, 0, restart.stderr);
    assert.match(
      restart.stderr,
      /Warning: .*r had no manifest and no rows.*restarting in place/,
    );
    assert.equal((await readRows(runDir)).length, 3);
  }));

Deno.test("sweep CLI: SIGKILL as the run folder is being made leaves no visible folder without a manifest", () =>
  withTemp(async (base) => {
    // Four sweeps, each killed a few milliseconds after its output folder
    // appears: the moment the run folder is made and its manifest written.
    const tries = await Promise.all([0, 2, 5, 12].map(async (delay, i) => {
      const out = join(base, `out${i}`);
      const config = join(base, `c${i}.json`);
      await Deno.writeTextFile(config, JSON.stringify(configJson(out)));
      const child = spawnSweep([config, "--progress", "none"]);
      const outputDone = child.output();
      for (;;) {
        const there = await Deno.stat(out).then(() => true, () => false);
        if (there) break;
        const finished = await Promise.race([
          outputDone.then(() => true),
          new Promise<false>((r) => setTimeout(() => r(false), 2)),
        ]);
        if (finished) break;
      }
      await new Promise((r) => setTimeout(r, delay));
      try {
        child.kill("SIGKILL");
      } catch {
        // It finished first.
      }
      await outputDone;
      return out;
    }));
    // The kills came once the output folder existed (not before start-up).
    for (const out of tries) {
      assert.ok((await Deno.stat(out)).isDirectory, out);
      console.log(
        `kill: ${
          [...Deno.readDirSync(out)].map((e) => e.name).join(", ") ||
          "(nothing)"
        }`,
      );
      for (const entry of Deno.readDirSync(out)) {
        if (entry.name.startsWith(".")) continue;
        const manifest = await readManifest(join(out, entry.name));
        assert.equal(manifest.run, entry.name);
      }
    }
  }));
