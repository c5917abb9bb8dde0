import assert from "node:assert/strict";
import { parseConfig } from "../../../lib/mod.ts";
import {
  formatSensitivity,
  linalgCliff,
  linalgErrorChart,
  linalgErrorsBySize,
  linalgTiers,
} from "../../../lib/suites/linalg/mod.ts";
import { loadRuns } from "../../../lib/report/mod.ts";
import { runSweep } from "../../../lib/mod.ts";

Deno.test("linalg reports read a real sim sweep: cliff, tiers, error families, format gap", async () => {
  const out = await Deno.makeTempDir();
  try {
    const config = parseConfig({
      name: "linalg-report",
      seed: 3,
      outputDir: out,
      max_tokens: 2048,
      models: [{ name: "sim-strong", provider: "sim" }, {
        name: "sim-weak",
        provider: "sim",
      }],
      suites: [{
        name: "linalg",
        params: {
          source: "generated",
          sizes: [3, 6],
          count: 6,
          tasks: ["trace", "determinant", "eigenvalue"],
          formats: ["latex", "table"],
        },
      }],
    }, "test");
    const { runDir } = await runSweep(config, {
      progress: "none",
      cache: false,
    });
    const { frame } = await loadRuns(runDir);
    assert.equal(frame.height, 2 * 2 * 3 * 6 * 2);

    assert.match(linalgCliff(frame).html, /<svg/);
    const tiers = linalgTiers(frame).toRecords();
    const acc = (model: string, tier: string, size: number) =>
      Number(
        tiers.find((r) =>
          r.model === model && r.tier === tier && r.size === size
        )!.accuracy,
      );
    assert.ok(
      acc("sim-strong", "recursive", 3) > acc("sim-strong", "recursive", 6),
    );
    assert.ok(
      acc("sim-weak", "reading", 6) > acc("sim-weak", "compositional", 6),
    );

    const errors = linalgErrorsBySize(frame).toRecords();
    const share = (size: number, family: string) =>
      Number(
        errors.find((r) => r.size === size && r.family === family)?.share ?? 0,
      );
    assert.ok(share(6, "abandonment") > share(3, "abandonment"));
    assert.match(linalgErrorChart(frame).html, /<rect/);

    const formats = formatSensitivity(frame);
    assert.deepEqual(formats.columns, ["model", "latex", "table", "gap"]);
    assert.equal(formats.height, 2);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("linalg reports refuse a frame without linalg dims", async () => {
  const pl = (await import("nodejs-polars")).default;
  assert.throws(
    () => linalgTiers(pl.DataFrame({ model: ["a"], correct: [true] })),
    /Cannot build linalg report/,
  );
});
