import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { parseConfig } from "../../../lib/mod.ts";
import { LLMMATH_ITEMS } from "../../../lib/suites/arithmetic/llmmath/questions.ts";
import { llmmathReport } from "../../../lib/suites/arithmetic/llmmath/stats.ts";
import { averagePassRate } from "../../../lib/providers/sim/mod.ts";
import {
  accuracyAgainstTokens,
  accuracyByDigits,
  arithmeticPercent,
  bareVsTool,
  bareVsToolChart,
  breakingPoint,
  breakingPointMatrix,
  breakingPoints,
  calibrationSummary,
  errorClassChart,
  errorClassShares,
  errorClassTable,
  generatedArithmetic,
  LLMMATH_PUBLISHED_AVERAGE,
  llmmathCalibration,
  llmmathCalibrationChart,
  llmmathTable,
} from "../../../lib/suites/arithmetic/mod.ts";
import {
  loadRuns,
  summarize,
  wilsonInterval,
} from "../../../lib/report/mod.ts";
import { runSweep } from "../../../lib/mod.ts";

type Row = Record<string, unknown>;
const close = (a: unknown, b: number, what: string) =>
  assert.ok(Math.abs(Number(a) - b) < 1e-9, `${what}: ${a} != ${b}`);
const itemDigits = LLMMATH_ITEMS.map(([a, b]) => Math.max(a.length, b.length));

Deno.test("breakingPoint() finds the published llmmath averages break between 5 and 6 digits", () => {
  const points = LLMMATH_PUBLISHED_AVERAGE.map((rate, i) => ({
    x: itemDigits[i]!,
    correct: Math.round(rate * 100),
    n: 100,
  }));
  const firstBelow = points.find((p) => p.correct / p.n < 0.5)!;
  const before = points[points.indexOf(firstBelow) - 1]!;
  const bp = breakingPoint(points);
  assert.equal(bp.point, firstBelow.x);
  assert.ok(bp.crossing! > before.x && bp.crossing! < firstBelow.x);
  // The interval of 24/100 lies wholly below 50%, so the drop is confirmed at once.
  assert.ok(wilsonInterval(firstBelow.correct, 100).hi < 0.5);
  assert.equal(bp.confirmed, firstBelow.x);
});

Deno.test("breakingPoint() ignores order and empty points, and confirms only when the interval is below", () => {
  const shuffled = [
    { x: 8, correct: 1, n: 5 },
    { x: 3, correct: 0, n: 0 },
    { x: 2, correct: 5, n: 5 },
    { x: 10, correct: 0, n: 40 },
  ];
  const bp = breakingPoint(shuffled);
  assert.equal(bp.point, 8);
  // 1 of 5 is below 50%, but its Wilson interval reaches above it.
  assert.ok(wilsonInterval(1, 5).hi > 0.5);
  assert.equal(bp.confirmed, 10);
  assert.equal(breakingPoint([{ x: 4, correct: 1, n: 4 }]).crossing, 4);
  assert.deepEqual(breakingPoint([]), {
    point: null,
    crossing: null,
    confirmed: null,
  });
});

Deno.test("breakingPoint() refuses a threshold outside (0, 1]", () => {
  assert.throws(() => breakingPoint([], { threshold: 0 }), RangeError);
  assert.throws(
    () => breakingPoint([], { threshold: 1.5 }),
    /Cannot find a breaking point: threshold must be in \(0, 1\]/,
  );
});

Deno.test("LLMMATH_PUBLISHED_AVERAGE matches the anchors the sim is calibrated on", () => {
  assert.equal(LLMMATH_PUBLISHED_AVERAGE.length, LLMMATH_ITEMS.length);
  LLMMATH_PUBLISHED_AVERAGE.forEach((rate, i) =>
    close(averagePassRate(itemDigits[i]!), rate, `item ${i + 1}`)
  );
});

Deno.test("arithmetic reports refuse a frame without the columns they need", () => {
  const frame = pl.DataFrame({ model: ["a"], correct: [true] });
  assert.throws(() => breakingPoints(frame), /Cannot build breaking points/);
  assert.throws(() => bareVsTool(frame), /lacks template, digits/);
  assert.throws(() => errorClassShares(frame), /lacks digits, status/);
  assert.throws(() => llmmathTable(frame), /lacks question_id/);
});

Deno.test("arithmeticPercent() marks rates, accuracies and llmmath items, not counts", () => {
  for (const c of ["accuracy", "acc_lo", "tool_hi", "gain", "win", "Q7"]) {
    assert.equal(arithmeticPercent(c), true, c);
  }
  for (const c of ["n", "tool_n", "digits", "runs", "crossing", "errors"]) {
    assert.equal(arithmeticPercent(c), false, c);
  }
});

Deno.test("arithmetic reports on a real sim sweep", async (t) => {
  const out = await Deno.makeTempDir({ prefix: "arith-report-" });
  try {
    const models = ["sim-strong", "sim-weak"].map((name) => ({
      name,
      provider: "sim",
    }));
    const count = 8;
    const digits = [2, 4, 8, 10];
    const main = await runSweep(
      parseConfig({
        name: "arith",
        seed: 5,
        outputDir: out,
        models,
        suites: [{
          name: "arithmetic",
          params: { families: ["add", "mul"], digits, count },
          templates: ["direct", "cot", "calculator"],
        }],
      }, "test"),
      { progress: "none", cache: false },
    );
    const ll = await runSweep(
      parseConfig({
        name: "llmmath",
        seed: 5,
        outputDir: out,
        samples: 5,
        models: [...models, { name: "sim-average", provider: "sim" }],
        suites: [{
          name: "arithmetic",
          params: { preset: "llmmath" },
          templates: ["llmmath"],
        }],
      }, "test"),
      { progress: "none", cache: false },
    );
    const { frame: both } = await loadRuns([main.runDir, ll.runDir], {
      warn: false,
    });
    const frame = generatedArithmetic(both);
    const direct = frame.filter(pl.col("template").eq(pl.lit("direct")));
    const notCorrect = (f: pl.DataFrame) =>
      f.filter(pl.col("status").neq(pl.lit("correct")));

    await t.step("generatedArithmetic() drops the llmmath preset rows", () => {
      assert.equal(both.height, main.total + ll.total);
      assert.equal(frame.height, main.total);
      assert.equal(
        frame.filter(pl.col("question_id").str.contains("llmmath")).height,
        0,
      );
    });

    await t.step(
      "breakingPoints() agrees with breakingPoint() on each group's counts",
      () => {
        const table = breakingPoints(direct, { by: ["model", "family"] });
        assert.equal(table.height, 2 * 2);
        const counts = summarize(direct, ["model", "family", "digits"])
          .toRecords();
        for (const row of table.toRecords()) {
          const mine = counts.filter((c) =>
            c.model === row.model && c.family === row.family
          );
          const bp = breakingPoint(mine.map((c) => ({
            x: Number(c.digits),
            correct: Number(c.correct),
            n: Number(c.n),
          })));
          assert.equal(row.breaking_point, bp.point);
          assert.equal(row.confirmed, bp.confirmed);
          assert.equal(row.tested, Math.max(...digits));
          assert.equal(row.n, mine.reduce((s, c) => s + Number(c.n), 0));
        }
        // The weak profile breaks on products no later than the strong one.
        const at = (model: string) =>
          table.toRecords().find((r) =>
            r.model === model && r.family === "mul"
          )!.breaking_point as number | null;
        assert.notEqual(at("sim-weak"), null);
        assert.ok(
          at("sim-strong") === null || at("sim-strong")! >= at("sim-weak")!,
        );
      },
    );

    await t.step("breakingPointMatrix() shows the same points as text", () => {
      const long = breakingPoints(direct, { by: ["model", "family"] })
        .toRecords();
      const wide = breakingPointMatrix(direct).toRecords();
      assert.deepEqual(wide.map((r) => r.model), ["sim-strong", "sim-weak"]);
      for (const r of long) {
        const cell = wide.find((w) => w.model === r.model)![String(r.family)];
        assert.equal(
          cell,
          r.breaking_point === null
            ? `> ${r.tested}`
            : String(r.breaking_point),
        );
      }
    });

    await t.step(
      "accuracyByDigits() draws one dot per family, digits and model",
      () => {
        const html = accuracyByDigits(direct).html;
        // Only the dot mark draws circles; facets split it into one group per panel.
        assert.equal(
          html.match(/<circle/g)?.length,
          summarize(direct, ["family", "digits", "model"]).height,
        );
        assert.match(html, />add</);
        assert.match(html, />mul</);
      },
    );

    await t.step(
      "bareVsTool() counts every direct and calculator row once",
      () => {
        const pooled = bareVsTool(frame, { group: null }).toRecords();
        assert.equal(pooled.length, 2);
        for (const r of pooled) {
          const rows = (template: string) =>
            frame.filter(
              pl.col("model").eq(pl.lit(String(r.model)))
                .and(pl.col("template").eq(pl.lit(template))),
            );
          const bare = rows("direct"), tool = rows("calculator");
          assert.equal(r.bare_n, bare.height);
          assert.equal(r.tool_n, tool.height);
          close(
            r.bare_accuracy,
            bare.getColumn("correct").cast(pl.Int64).sum() / bare.height,
            "bare",
          );
          close(
            r.gain,
            Number(r.tool_accuracy) - Number(r.bare_accuracy),
            "gain",
          );
          assert.ok(Number(r.tool_lo) <= Number(r.tool_accuracy));
        }
        const byDigits = bareVsTool(frame).toRecords();
        assert.deepEqual(
          [...new Set(byDigits.map((r) => r.digits))].sort((a, b) =>
            Number(a) - Number(b)
          ),
          digits,
        );
      },
    );

    await t.step("bareVsTool() keeps a text group as text", () => {
      const byFamily = bareVsTool(frame, { group: "family" }).toRecords();
      assert.deepEqual(
        [...new Set(byFamily.map((r) => r.family))].sort(),
        ["add", "mul"],
      );
    });

    await t.step(
      "bareVsToolChart() draws a solid and a dashed line per model",
      () => {
        const html = bareVsToolChart(frame).html;
        const lines = html.match(/<g[^>]*aria-label="line"[^>]*>/g) ?? [];
        assert.equal(lines.length, 2);
        assert.equal(
          lines.filter((g) => g.includes('stroke-dasharray="5 3"')).length,
          1,
        );
        assert.equal(
          html.match(/<circle/g)?.length,
          2 * bareVsTool(frame).height,
        );
      },
    );

    await t.step(
      "errorClassShares() accounts for every row that is not correct",
      () => {
        const shares = errorClassShares(frame).toRecords();
        assert.equal(
          shares.reduce((s, r) => s + Number(r.errors), 0),
          notCorrect(frame).height,
        );
        for (const d of new Set(shares.map((r) => r.digits))) {
          const sum = shares.filter((r) => r.digits === d)
            .reduce((s, r) => s + Number(r.share), 0);
          close(sum, 1, `shares at ${d} digits`);
        }
      },
    );

    await t.step(
      "errorClassTable() rows add up to each model's failures",
      () => {
        const t = errorClassTable(frame);
        for (const r of t.toRecords()) {
          const classes = t.columns.slice(2).reduce(
            (s, c) => s + Number(r[c]),
            0,
          );
          assert.equal(classes, r.failures);
          assert.equal(
            r.failures,
            notCorrect(
              frame.filter(pl.col("model").eq(pl.lit(String(r.model)))),
            )
              .height,
          );
        }
      },
    );

    await t.step(
      "errorClassChart() draws one bar segment per (digits, class)",
      () => {
        const html = errorClassChart(frame).html;
        const bars = html.split('aria-label="bar"')[1]!.split("</g>")[0]!;
        assert.equal(
          bars.match(/<rect/g)?.length,
          errorClassShares(frame).height,
        );
        // Digit counts run in numeric order (10 after 9), not text order.
        const labels = html.split('aria-label="x-axis tick label"')[1]!
          .split("</g>")[0]!.match(/>(\d+)</g)!.map((m) =>
            Number(m.slice(1, -1))
          );
        assert.deepEqual(labels, [...labels].sort((a, b) => a - b));
        assert.equal(
          new Set(errorClassShares(frame).getColumn("digits").toArray()).size,
          labels.length,
        );
      },
    );

    await t.step(
      "accuracyAgainstTokens() draws an arrow per model, from direct to cot",
      () => {
        const html = accuracyAgainstTokens(frame).html;
        const arrows = html.split('aria-label="arrow"')[1]!.split("</g>")[0]!;
        assert.equal(arrows.match(/<path/g)?.length, 2);
        const dots = html.split('aria-label="dot"')[1]!.split("</g>")[0]!;
        assert.equal(dots.match(/<path/g)?.length, 4);
      },
    );

    await t.step(
      "llmmathTable() lays out the pass rates of llmmathReport",
      () => {
        const table = llmmathTable(both);
        assert.deepEqual(table.columns, [
          "model",
          "win",
          "Q1",
          "Q2",
          "Q3",
          "Q4",
          "Q5",
          "Q6",
          "Q7",
          "runs",
        ]);
        const rows = table.toRecords() as Row[];
        assert.equal(rows.length, 3 + 1);
        assert.equal(rows.at(-1)!.model, "Average");
        const report = llmmathReport(
          both.select("model", "question_id", "correct").toRecords().map((
            r,
          ) => ({
            model: String(r.model),
            questionId: String(r.question_id),
            correct: r.correct === true,
          })),
        );
        for (const r of report) {
          const row = rows.find((x) => x.model === r.model)!;
          close(row[`Q${r.item}`], r.rate, `${r.model} Q${r.item}`);
          assert.equal(r.runs, 5);
        }
        const body = rows.slice(0, -1);
        for (let i = 1; i < body.length; i++) {
          assert.ok(Number(body[i - 1]!.win) >= Number(body[i]!.win));
        }
        for (const row of rows) {
          const qs = [1, 2, 3, 4, 5, 6, 7].map((i) => Number(row[`Q${i}`]));
          close(row.win, qs.reduce((s, x) => s + x, 0) / 7, `${row.model} win`);
        }
        close(
          rows.at(-1)!.Q3,
          body.reduce((s, r) => s + Number(r.Q3), 0) / body.length,
          "average Q3",
        );
      },
    );

    await t.step(
      "llmmathCalibration() sets the sim beside the published averages",
      () => {
        // Generated products of sim-strong stand in for the calibration sweep here.
        const calib = llmmathCalibration(both, {
          model: "sim-strong",
          template: "direct",
        });
        const rows = calib.toRecords();
        assert.equal(rows.length, 7);
        rows.forEach((r, i) => {
          assert.equal(r.published_rate, LLMMATH_PUBLISHED_AVERAGE[i]);
          assert.equal(r.llmmath_runs, 5);
          if (digits.includes(Number(r.digits))) {
            assert.equal(r.n, count);
            close(
              r.diff_rate,
              Number(r.accuracy) - Number(r.published_rate),
              "diff",
            );
            assert.equal(
              r.published_inside,
              Number(r.acc_lo) <= Number(r.published_rate) &&
                Number(r.published_rate) <= Number(r.acc_hi),
            );
          } else {
            assert.equal(r.n, 0);
            assert.equal(r.accuracy, null);
          }
        });
        const inside = rows.filter((r) => r.published_inside === true).length;
        const measured = rows.filter((r) => r.accuracy !== null).length;
        assert.match(
          calibrationSummary(calib, "sim-strong"),
          new RegExp(
            `^sim-strong: ${inside} of ${measured} published averages lie inside`,
          ),
        );
        const html = llmmathCalibrationChart(calib).html;
        assert.equal(
          html.match(/<circle/g)?.length,
          7 + rows.filter((r) => r.llmmath_rate !== null).length,
        );
      },
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
