/**
 * The demo's rows before and after the move to `defineSuite` (issue 44):
 * the demo config (`data/configs/demo.json`) and the question-and-answer
 * example (`data/configs/qa.json`), run with their seeds, give the same
 * keys, prompts, replies, extractions, verdicts and steady metrics as the
 * digests recorded on the commit before the move
 * (`tests/fixtures/golden/demo_rows.tsv`, `qa_rows.tsv`); timings,
 * timestamps and measured complexity aside (see `_digest.ts`).
 */
import { loadConfig, runSweep } from "../../lib/mod.ts";
import { assertSameRows } from "../fixtures/golden/_digest.ts";

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
      await assertSameRows(
        `${runDir}/results.jsonl`,
        new URL(digests, ROOT),
        true,
      );
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
}
