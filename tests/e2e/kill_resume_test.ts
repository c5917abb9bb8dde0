import assert from "node:assert/strict";
import { runSweep } from "../../lib/mod.ts";
import { startSimServer } from "../../lib/mod.ts";
import { loadConfig } from "../../lib/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import { comparable, e2eSuite, readRows, withTemp } from "./_setup.ts";
import { countRows, rng, spawnSweep } from "./_cli.ts";

async function drain(child: Deno.ChildProcess): Promise<Deno.CommandStatus> {
  const [status] = await Promise.all([
    child.status,
    child.stdout.cancel(),
    child.stderr.cancel(),
  ]);
  return status;
}

Deno.test("sweep CLI killed with SIGKILL at seeded random moments and resumed gives the rows of an uninterrupted run", () =>
  withTemp(async (dir) => {
    const { entry, ids } = await e2eSuite(100, 5);
    const server = await startSimServer({ seed: 2, latencyMs: 15 });
    try {
      const base = {
        name: "kill",
        seed: 5,
        samples: 2,
        temperature: 0.7,
        concurrency: 8,
        suites: [entry],
        models: ["sim-average", "sim-reasoner"].map((p) => ({
          name: p,
          provider: "openai",
          model: p,
          baseURL: server.baseURL,
          concurrency: 4,
        })),
      };
      const total = 2 * ids.length * 2;
      await Deno.writeTextFile(
        `${dir}/killed.json`,
        JSON.stringify({ ...base, outputDir: `${dir}/killed` }),
      );
      await Deno.writeTextFile(
        `${dir}/clean.json`,
        JSON.stringify({ ...base, outputDir: `${dir}/clean` }),
      );
      const runDir = `${dir}/killed/run`;
      const results = `${runDir}/results.jsonl`;

      const random = rng(20261129);
      let kills = 0;
      for (let round = 0; round < 4; round++) {
        const before = await countRows(results);
        const target = before + 20 + Math.floor(random() * 80);
        // Round 0 waits for rows (the manifest must exist to resume); later
        // rounds may also be killed at a random time, even during start-up.
        const deadline = round === 0
          ? Infinity
          : performance.now() + 300 + random() * 2500;
        const child = spawnSweep(
          round === 0
            ? [`${dir}/killed.json`, "--run-dir", runDir, "--progress", "none"]
            : ["--resume", runDir, "--progress", "none"],
        );
        let exited = false;
        child.status.then(() => (exited = true));
        while (
          !exited && (await countRows(results)) < target &&
          performance.now() < deadline
        ) {
          await new Promise((r) => setTimeout(r, 10));
        }
        if (!exited) {
          child.kill("SIGKILL");
          kills++;
        }
        await drain(child);
      }
      assert.ok(kills >= 3, `killed ${kills} times`);
      assert.ok(
        (await countRows(results)) < total,
        "still unfinished after the kills",
      );

      const last = spawnSweep(["--resume", runDir, "--progress", "none"]);
      const out = await last.output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const rows = await readRows(runDir);
      assert.equal(rows.length, total, "no duplicated rows");
      assert.equal(new Set(rows.map((r) => r.key)).size, total);
      const manifest = await readManifest(runDir);
      assert.ok(manifest.sessions.length >= 2);
      assert.equal(manifest.interrupted, false);

      const { config, baseDir } = await loadConfig(`${dir}/clean.json`);
      const clean = await runSweep(config, { progress: "none", baseDir });
      assert.equal(clean.done, total);
      assert.deepEqual(
        comparable(rows),
        comparable(await readRows(clean.runDir)),
      );
    } finally {
      await server.close();
    }
  }));
