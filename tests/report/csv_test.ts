import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { loadRuns, summarize, writeSummaryCsv } from "../../lib/report/mod.ts";

function row(model: string, template: string, correct: boolean, i: number) {
  return JSON.stringify({
    key: `${model}|q${i}|${template}|0`,
    model,
    suite: "arithmetic",
    template,
    question_id: `q${i}`,
    status: correct ? "correct" : "wrong",
    correct,
    dims: { digits: 2 + (i % 3) },
    latency_ms: 10 + i,
    prompt_tokens: 5,
    completion_tokens: 7,
  });
}

Deno.test("writeSummaryCsv() writes the summary table as CSV that parses back to the same numbers", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lines = [];
    // A model name with a comma and quotes must survive CSV quoting.
    const odd = 'gpt "mini", v2';
    for (let i = 0; i < 12; i++) {
      lines.push(row("sim-strong", "direct", i % 4 !== 0, i));
      lines.push(row(odd, "cot", i % 2 === 0, i));
    }
    await Deno.writeTextFile(join(dir, "manifest.json"), "{}");
    await Deno.writeTextFile(
      join(dir, "results.jsonl"),
      lines.join("\n") + "\n",
    );
    const path = await writeSummaryCsv(dir);
    assert.equal(path, join(dir, "summary.csv"));
    const records = parse(await Deno.readTextFile(path), {
      columns: true,
    }) as Record<string, string>[];
    const { frame } = await loadRuns([dir], { warn: false });
    const expected = summarize(frame, ["model", "suite", "template"])
      .toRecords();
    assert.equal(records.length, expected.length);
    for (const want of expected) {
      const got = records.find((r) =>
        r.model === want.model && r.template === want.template
      );
      assert.ok(got, `no CSV row for ${String(want.model)}`);
      assert.equal(Number(got.n), want.n);
      assert.equal(Number(got.correct), want.correct);
      assert.ok(Math.abs(Number(got.accuracy) - Number(want.accuracy)) < 1e-12);
      assert.ok(Math.abs(Number(got.acc_lo) - Number(want.acc_lo)) < 1e-12);
    }
    assert.ok(records.some((r) => r.model === odd));
    assert.equal(records.find((r) => r.model === odd)?.accuracy, "0.5");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeSummaryCsv() names a missing run folder", async () => {
  await assert.rejects(
    () => writeSummaryCsv("/nonexistent/run"),
    /nonexistent\/run/,
  );
});
