import assert from "node:assert/strict";
import { runSweep } from "../../lib/mod.ts";
import { startSimServer } from "../../lib/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import { comparable, e2eSuite, readRows, withTemp } from "./_setup.ts";

Deno.test("runSweep() gives the same rows in process and over HTTP with the real openai client", () =>
  withTemp(async (dir) => {
    const { entry, ids } = await e2eSuite(40, 11);
    const profiles = ["sim-average", "sim-chatty", "sim-reasoner"];
    const base = {
      suites: [entry],
      samples: 2,
      temperature: 0.7,
      seed: 11,
      cache: false,
    };
    const local = SweepConfigSchema.parse({
      ...base,
      outputDir: `${dir}/local`,
      models: profiles.map((p) => ({ name: p, provider: "sim", model: p })),
    });
    const server = await startSimServer({ seed: 1 });
    try {
      const remote = SweepConfigSchema.parse({
        ...base,
        outputDir: `${dir}/http`,
        models: profiles.map((p) => ({
          name: p,
          provider: "openai",
          model: p,
          baseURL: server.baseURL,
        })),
      });
      const a = await runSweep(local, { progress: "none" });
      const b = await runSweep(remote, { progress: "none" });
      assert.equal(a.total, 3 * ids.length * 2);
      assert.equal(b.done, a.total);
      assert.equal(b.errors, 0);
      assert.equal(server.stats().byOutcome.ok, a.total);
      const left = comparable(await readRows(a.runDir));
      const right = comparable(await readRows(b.runDir));
      assert.equal(left.length, a.total);
      assert.deepEqual(right, left);
      // The sweep must not be trivially uniform: the profiles differ.
      assert.ok(new Set(left.map((r) => r.response)).size > ids.length);
      assert.ok(
        left.some((r) => r.correct === false),
        "some answers are wrong",
      );
    } finally {
      await server.close();
    }
  }));
