/**
 * Adding a suite is one folder and its registry lines: a toy suite defined
 * in one fixture file (tests/fixtures/toy_suite.ts) is registered in a
 * copy of `lib/suites/registry.ts` exactly as a suite author would (a
 * `type` line and a `LOADERS` entry, nothing else), then loaded through
 * that registry, swept, stored, loaded, summarised and shown in the HTML
 * report with its declared dims.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { parseConfig as parseWith } from "../../lib/config/mod.ts";
import { runSweep } from "../../lib/runner/mod.ts";
import { loadRuns, renderReport, summarize } from "../../lib/report/mod.ts";
import { copyWithSuite } from "../fixtures/registered_copy.ts";

type Registry = typeof import("../../lib/suites/registry.ts");

/** The toy suite's registry lines (the fixture keeps its place in tests/). */
const TOY_REGISTRY =
  `type Toy = typeof import("../../tests/fixtures/toy_suite.ts");
const LOADERS = [
  [
    "toy",
    async () => (await load<Toy>("../../tests/fixtures/toy_suite.ts")).toySuite,
  ],
];`;

Deno.test("a toy suite from one fixture file is swept, stored, loaded, summarised and reported with its declared dims", async () => {
  await using copy = await copyWithSuite({
    copy: ["tests/fixtures/toy_suite.ts"],
    registry: [TOY_REGISTRY],
  });
  const { loadSuites, SUITE_NAMES } = await copy.load<Registry>(
    "lib/suites/registry.ts",
  );
  assert.equal(SUITE_NAMES[0], "toy");
  // As the sweep command loads them: the suites its config names.
  const suites = await loadSuites(["arithmetic", "toy"]);
  assert.deepEqual(suites.map((s) => s.name), ["toy", "arithmetic"]);
  const out = await Deno.makeTempDir();
  try {
    const config = parseWith(
      {
        outputDir: out,
        cache: false,
        models: [{ name: "sim-strong", provider: "sim" }, {
          name: "sim-weak",
          provider: "sim",
        }],
        suites: [{ name: "toy", params: { count: 12 } }, {
          name: "arithmetic",
          params: { families: ["add"], digits: [2], count: 3 },
        }],
      },
      "toy-test",
      { suites },
    );
    const result = await runSweep(config, {
      suites,
      progress: "none",
    });
    assert.equal(result.done, 2 * (12 * 2 + 3));
    assert.deepEqual(result.warnings, []); // the sim reads both suites
    const loaded = await loadRuns(result.runDir, { warn: false });
    const toy = loaded.frame.filter(pl.col("suite").eq(pl.lit("toy")));
    assert.equal(toy.height, 2 * 12 * 2);
    // Declared dims and the suite's metrics are columns.
    for (const col of ["digits", "bucket", "toy_len"]) {
      assert.ok(loaded.frame.columns.includes(col), col);
    }
    const statuses = new Set(toy.getColumn("status").toArray());
    assert.ok(statuses.has("correct") && statuses.has("wrong"));
    const summary = summarize(toy, ["model", "template"]);
    assert.equal(summary.height, 4);
    const html = await renderReport(loaded, { title: "toy", suites });
    assert.match(html, /Parity of a number/);
    assert.match(html, /toy digit count/);
    assert.match(html, /toy fizz bucket/);
    assert.match(html, /Toy parity corner/);
    assert.match(html, /shout/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
