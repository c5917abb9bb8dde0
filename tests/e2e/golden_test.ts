/**
 * The same rows before and after: a fixed-seed sweep over every suite,
 * template kind (including the calculator tool loop) and sim style is
 * compared, row by row, with digests recorded before the suite-folder
 * restructuring (`tests/fixtures/golden/rows.tsv`). A change that alters
 * what any row says fails here, naming the rows.
 */
import assert from "node:assert/strict";
import { loadConfig, runSweep } from "../../lib/mod.ts";
import { assertSameRows, digestRows } from "../fixtures/golden/_digest.ts";

const HERE = new URL("../fixtures/golden/", import.meta.url);

Deno.test("a fixed-seed sweep over all suites gives the same rows as before the restructuring", async () => {
  const out = await Deno.makeTempDir();
  try {
    const { config, baseDir } = await loadConfig(
      new URL("config.json", HERE).pathname,
    );
    const { runDir, done } = await runSweep(
      { ...config, outputDir: out },
      { progress: "none", baseDir },
    );
    const results = `${runDir}/results.jsonl`;
    assert.equal(done, (await digestRows(results)).length);
    await assertSameRows(results, new URL("rows.tsv", HERE));
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
