/**
 * `--by <dim,...>`: the closing table, the report and summary.csv break the
 * results down by any dim the rows carry, with the same numbers; a dim no
 * row has is named with the dims the rows do have.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import {
  summarizeResultsText,
  writeReport,
  writeSummaryCsv,
} from "../../lib/report/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";

Deno.test("--by breaks the closing table, the report and summary.csv down by a dim, with the same counts", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const rows = fakeRows({ questions: 12 });
    const dir = await writeFakeRun(tmp, "run", rows);
    const text = await summarizeResultsText(dir, { by: ["family"] });
    const [, extra] = text.split("\n\nBy family:\n");
    assert.ok(extra, text);
    // Per model and family: the rows of that model and family, counted by hand.
    for (const model of ["m-good", "m-bad"]) {
      for (const family of ["add", "mul"]) {
        const mine = rows.filter((r) =>
          r.model === model && r.dims.family === family &&
          r.status !== "unscored"
        );
        const correct = mine.filter((r) => r.correct).length;
        const pct = `${(100 * correct / mine.length).toFixed(1)}%`;
        assert.match(
          extra,
          new RegExp(
            `\\narithmetic\\s+${model}\\s+${family}\\s+${mine.length}\\s+${
              pct.replace(".", "\\.")
            }`,
          ),
        );
      }
    }
    const none = await summarizeResultsText(dir, { by: ["category"] });
    assert.match(
      none,
      /By category:\nNote: no row has category; the rows' dims are digits, family, level\./,
    );
    const page = await Deno.readTextFile(
      await writeReport(dir, { by: ["family"], out: join(tmp, "r.html") }),
    );
    assert.match(page, /<h2>By family<\/h2>/);
    assert.match(page, /arithmetic: accuracy by family/);
    const csv = parse(
      await Deno.readTextFile(
        await writeSummaryCsv(dir, {
          by: ["model", "suite", "template", "family"],
        }),
      ),
      { columns: true },
    ) as Record<string, string>[];
    const line = csv.find((r) =>
      r.model === "m-good" && r.template === "direct" && r.family === "add"
    );
    const mine = rows.filter((r) =>
      r.model === "m-good" && r.template === "direct" &&
      r.dims.family === "add"
    );
    assert.equal(Number(line?.n), mine.length);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
