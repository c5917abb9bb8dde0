import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { SweepConfigSchema } from "../../../lib/config/schema.ts";
import {
  cevalByFact,
  cevalBySubject,
  cevalCategoryChart,
  cevalHardChart,
  cevalScored,
  cevalSubmission,
  cevalSummary,
} from "../../../lib/suites/ceval/mod.ts";
import { loadRuns } from "../../../lib/report/mod.ts";
import { runSweep } from "../../../lib/mod.ts";

/** Runs a small C-Eval sweep (val and test) on two sim profiles; returns the frame. */
async function sweepFrame(dir: string): Promise<pl.DataFrame> {
  const frames: pl.DataFrame[] = [];
  for (const split of ["val", "test"]) {
    const config = SweepConfigSchema.parse({
      name: `ceval-${split}`,
      seed: 5,
      samples: 1,
      outputDir: dir,
      cache: false,
      models: [
        { name: "sim-strong", provider: "sim" },
        { name: "sim-weak", provider: "sim" },
      ],
      suites: [{
        name: "ceval",
        params: { split, shots: 2 },
        templates: ["answer_only", "few_shot_cot"],
      }],
    });
    const result = await runSweep(config, {
      progress: "none",
      runDir: `${dir}/${split}`,
    });
    const { frame } = await loadRuns([result.runDir], {
      cache: false,
      warn: false,
    });
    frames.push(frame);
  }
  return pl.concat(frames, { how: "diagonal" });
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ceval_report_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("C-Eval reports over a real sweep: subject, category, level, averages, HARD and the submission", () =>
  withTemp(async (dir) => {
    const frame = await sweepFrame(dir);
    const rows = frame.toRecords();
    const scored = cevalScored(frame);
    const unscored = rows.filter((r) => r.expected === "");
    assert.ok(unscored.length > 0);
    assert.equal(scored.height, rows.length - unscored.length);

    // Per subject, worst first, with extraction failures counted.
    const bySubject = cevalBySubject(frame, { by: ["model"] }).toRecords();
    const strong = bySubject.filter((r) => r.model === "sim-strong");
    for (let i = 1; i < strong.length; i++) {
      assert.ok(
        (strong[i - 1]!.accuracy as number) <= (strong[i]!.accuracy as number),
      );
    }
    const failures = scored.filter(
      pl.col("status").isIn(["parse_error", "truncated"]),
    ).height;
    assert.equal(
      bySubject.reduce((n, r) => n + (r.extraction_failures as number), 0),
      failures,
    );

    // The headline numbers, recomputed by hand from the rows.
    const summary = cevalSummary(frame, { by: ["model"] }).toRecords();
    for (const model of ["sim-strong", "sim-weak"]) {
      const mine = scored.filter(pl.col("model").eq(pl.lit(model)))
        .toRecords();
      const perSubject = new Map<string, [number, number, boolean]>();
      for (const r of mine) {
        const [n, k] = perSubject.get(r.subject as string) ?? [0, 0];
        perSubject.set(r.subject as string, [
          n + 1,
          k + (r.correct ? 1 : 0),
          r.hard as boolean,
        ]);
      }
      const accs = [...perSubject.values()].map(([n, k]) => k / n);
      const hard = [...perSubject.values()].filter(([, , h]) => h)
        .map(([n, k]) => k / n);
      const row = summary.find((r) => r.model === model)!;
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      assert.ok(Math.abs((row.average as number) - mean(accs)) < 1e-12);
      assert.ok(
        Math.abs(
          (row.average_questions as number) -
            mine.filter((r) => r.correct).length / mine.length,
        ) < 1e-12,
      );
      assert.ok(Math.abs((row.hard_average as number) - mean(hard)) < 1e-12);
      assert.equal(row.subjects, perSubject.size);
    }

    const categories = cevalByFact(frame, "category", { by: ["model"] });
    assert.deepEqual(
      new Set(categories.getColumn("category").toArray()),
      new Set(["STEM", "Social Science", "Humanities", "Other"]),
    );
    const chart = cevalCategoryChart(frame).html;
    for (const c of ["STEM", "Social Science", "Humanities", "Other"]) {
      assert.ok(chart.includes(c), c);
    }
    assert.match(cevalHardChart(frame).html, /C-Eval HARD[\s\S]*<rect/);
    const levels = cevalByFact(frame, "level", { by: [] }).toRecords();
    assert.equal(
      levels.reduce((n, r) => n + (r.n as number), 0),
      scored.height,
    );

    // Submission: every test row with a letter, ids as in the files.
    const sub = cevalSubmission(frame, {
      model: "sim-strong",
      template: "answer_only",
    });
    const testRows = rows.filter((r) =>
      r.split === "test" && r.model === "sim-strong" &&
      r.template === "answer_only"
    );
    const withLetter = testRows.filter((r) => r.extracted !== null);
    assert.equal(
      Object.values(sub).reduce((n, s) => n + Object.keys(s).length, 0),
      withLetter.length,
    );
    for (const r of withLetter) {
      const id = String(r.question_id).split("/").at(-1)!;
      assert.equal(sub[r.subject as string]?.[id], r.extracted);
    }
    assert.throws(() => cevalSubmission(frame), RangeError);
  }));

Deno.test("C-Eval reports name the missing columns of a frame that is not a ceval run", () => {
  const frame = pl.DataFrame({
    model: ["m"],
    expected: ["4"],
    correct: [true],
  });
  assert.throws(
    () => cevalBySubject(frame),
    (e: Error) => e instanceof RangeError && /subject/.test(e.message),
  );
});
