import assert from "node:assert/strict";
import { runSweep } from "../../lib/mod.ts";
import { startSimServer } from "../../lib/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import { e2eSuite, readRows, withTemp } from "./_setup.ts";

Deno.test("runSweep() under 429/500/hang/drop/malformed faults stores every key once and records every failure", () =>
  withTemp(async (dir) => {
    const { entry, ids } = await e2eSuite(100, 3);
    const server = await startSimServer({
      seed: 7,
      faults: {
        rate429: 0.10,
        retryAfterS: 0.05,
        rate500: 0.05,
        rateHang: 0.02,
        rateDrop: 0.01,
        rateMalformed: 0.01,
      },
    });
    try {
      const config = SweepConfigSchema.parse({
        suites: [entry],
        samples: 2,
        seed: 3,
        timeoutMs: 400,
        retries: 2,
        concurrency: 32,
        cache: false,
        outputDir: dir,
        models: ["sim-strong", "sim-weak"].map((p) => ({
          name: p,
          provider: "openai",
          model: p,
          baseURL: server.baseURL,
          concurrency: 16,
        })),
      });
      const result = await runSweep(config, { progress: "none" });
      const rows = await readRows(result.runDir);
      const keys = rows.map((r) => String(r.key));
      assert.equal(rows.length, result.total);
      assert.equal(new Set(keys).size, result.total, "no key twice");
      const expected = new Set<string>();
      for (const m of ["sim-strong", "sim-weak"]) {
        for (const id of ids) {
          for (let s = 0; s < 2; s++) expected.add(`${m}|${id}|direct|${s}`);
        }
      }
      assert.deepEqual(new Set(keys), expected, "every key present");

      const stats = server.stats();
      for (
        const outcome of [
          "rate_limit",
          "server_500",
          "hang",
          "drop",
          "malformed",
        ]
      ) {
        assert.ok(
          (stats.byOutcome[outcome] ?? 0) > 0,
          `faults of kind ${outcome} occurred`,
        );
      }
      // Every request the server saw is accounted for by some row's attempts,
      // except that Deno's HTTP client silently re-sends a request whose
      // pooled connection was dropped (the provider cannot count those).
      const attempts = rows.reduce((n, r) => n + Number(r.attempts), 0);
      const sent = stats.requests - (stats.byOutcome.models ?? 0);
      assert.ok(attempts <= sent, `${attempts} attempts <= ${sent} requests`);
      assert.ok(
        attempts >= sent - (stats.byOutcome.drop ?? 0),
        `${attempts} attempts >= ${sent} requests - drops`,
      );
      // Failed rows carry their kind and message; retried successes count attempts.
      const errors = rows.filter((r) => r.status === "error");
      assert.equal(errors.length, result.errors);
      assert.ok(
        errors.every((r) =>
          typeof r.error_kind === "string" && String(r.error_message).length > 0
        ),
      );
      assert.ok(
        rows.some((r) => r.status !== "error" && Number(r.attempts) > 1),
        "some rows needed retries",
      );
    } finally {
      await server.close();
    }
  }));
