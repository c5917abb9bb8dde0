/**
 * The demo's rows before and after the move to `defineSuite` (issue 44):
 * the demo config (`data/configs/demo.json`) and the question-and-answer
 * example (`data/configs/qa.json`), run with their seeds, give the same
 * keys, prompts, replies, extractions, verdicts and steady metrics as the
 * digests recorded on the commit before the move
 * (`tests/fixtures/golden/demo_rows.tsv`, `qa_rows.tsv`); timings,
 * timestamps and measured complexity aside (see `_digest.ts`).
 */
import assert from "node:assert/strict";
import { loadConfig, runSweep } from "../../lib/mod.ts";
import { digestRows } from "../fixtures/golden/_digest.ts";

const ROOT = new URL("../../", import.meta.url);

for (
  const [config, digests] of [
    ["data/configs/demo.json", "tests/fixtures/golden/demo_rows.tsv"],
    ["data/configs/qa.json", "tests/fixtures/golden/qa_rows.tsv"],
  ] as const
) {
  Deno.test(`${config} gives the rows recorded before defineSuite`, async () => {
    const out = await Deno.makeTempDir();
    try {
      const loaded = await loadConfig(new URL(config, ROOT).pathname);
      const { runDir } = await runSweep(
        { ...loaded.config, outputDir: out, cache: false },
        { progress: "none", baseDir: loaded.baseDir },
      );
      const expected = (await Deno.readTextFile(new URL(digests, ROOT)))
        .trim().split("\n");
      const got = await digestRows(`${runDir}/results.jsonl`, true);
      assert.equal(got.length, expected.length);
      const want = new Set(expected);
      const changed = got.filter((line) => !want.has(line));
      assert.deepEqual(
        changed.slice(0, 10),
        [],
        `${changed.length} rows changed`,
      );
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
}
