/**
 * Breaking points with intervals over a frame (crossingTable,
 * crossingChart) and the sections built on them, per suite.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  crossingChart,
  crossingTable,
  type DataFrame,
} from "../../lib/report/mod.ts";
import { arithmeticSections } from "../../lib/suites/arithmetic/mod.ts";
import { linalgSections } from "../../lib/suites/linalg/mod.ts";
import { fitCrossing } from "../../lib/adaptive/fit.ts";

/** `n` rows per (model, family, size), the first `k(size)` correct. */
function grid(
  models: Record<string, (size: number) => number>,
  sizes: number[],
  n: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown[]> {
  const cols: Record<string, unknown[]> = {
    model: [],
    family: [],
    digits: [],
    correct: [],
  };
  for (const [model, k] of Object.entries(models)) {
    for (const family of ["add", "mul"]) {
      for (const d of sizes) {
        for (let i = 0; i < n; i++) {
          cols.model!.push(model);
          cols.family!.push(family);
          cols.digits!.push(d);
          cols.correct!.push(i < (family === "add" ? n : k(d)));
        }
      }
    }
  }
  for (const [c, v] of Object.entries(extra)) {
    cols[c] = cols.model!.map(() => v);
  }
  return cols;
}

const SIZES = [2, 3, 4, 5, 6, 7];
// "fast" breaks between 4 and 5 digits on mul; "never" stays correct.
const MODELS = {
  fast: (d: number) => [20, 19, 15, 4, 1, 0][d - 2]!,
  never: () => 20,
};

Deno.test("crossingTable() matches fitCrossing() per group and says where a group never crosses", () => {
  const frame = pl.DataFrame(grid(MODELS, SIZES, 20));
  const rows = crossingTable(frame, { by: ["model", "family"], grid: true })
    .toRecords();
  assert.equal(rows.length, 4);
  const fast = rows.find((r) => r.model === "fast" && r.family === "mul")!;
  const fit = fitCrossing(
    SIZES.map((d) => ({ x: d, correct: MODELS.fast(d), n: 20 })),
  );
  assert.equal(fast.fit, fit.mean);
  assert.equal(fast.low, fit.low);
  assert.equal(fast.high, fit.high);
  assert.ok(fit.low > 4 && fit.high < 5.5, JSON.stringify(fit));
  assert.equal(fast.rows, 120);
  assert.ok(
    typeof fast.grid_requests === "number" && fast.grid_requests % 6 === 0,
  );
  for (const r of rows.filter((r) => r !== fast)) {
    assert.equal(r.fit, null);
    assert.equal(r.breaks_at, "above all sizes asked");
    assert.equal(r.grid_requests, null);
  }
  assert.throws(
    () => crossingTable(frame, { dimension: "size", suite: "linalg" }),
    /Cannot build breaking points.*size/,
  );
});

Deno.test("crossingTable() counts only scored rows (an unscored row has no outcome)", () => {
  const frame = pl.DataFrame({
    model: ["m", "m", "m", "m"],
    digits: [2, 2, 4, 4],
    correct: [true, false, false, false],
    status: ["correct", "unscored", "wrong", "wrong"],
    expected: ["1", "", "3", "4"],
  });
  const [row] = crossingTable(frame).toRecords();
  assert.equal(row!.rows, 3);
});

function sectionHtml(
  sections: { title: string; parts: string[] }[],
  title: string,
): string {
  const s = sections.find((s) => s.title === title);
  assert.ok(s, `no section "${title}" in ${sections.map((s) => s.title)}`);
  return s.parts.join("");
}

Deno.test("the arithmetic report's Breaking points section shows each crossing with its interval, the rows used and the grid's requests", () => {
  const frame: DataFrame = pl.DataFrame(
    grid(MODELS, SIZES, 20, {
      suite: "arithmetic",
      template: "direct",
      status: "correct",
    }),
  );
  const html = sectionHtml(arithmeticSections(frame), "Breaking points");
  assert.match(html, /<th>breaks_at<\/th>/);
  assert.match(html, /<td>4\.\d \[4\.\d, [45]\.\d\]<\/td>/);
  assert.match(html, /above all sizes asked/);
  assert.match(html, /<th>grid_requests<\/th>/);
  assert.match(html, /simulated from the fitted curve, so an estimate/);
  // The chart: one dot and one interval rule for the one crossing.
  const dots = html.split('aria-label="dot"')[1]!.split("</g>")[0]!;
  assert.equal(dots.match(/<circle/g)?.length, 1);
  assert.match(html, /aria-label="rule"[\s\S]*?<line/);
});

Deno.test("the linalg report's breaking points are per task over matrix size", () => {
  const cols = grid(MODELS, SIZES, 20, { suite: "linalg" });
  const frame = pl.DataFrame({
    model: cols.model!,
    task: cols.family!.map((f) => f === "add" ? "trace" : "determinant"),
    size: cols.digits!,
    correct: cols.correct!,
    suite: cols.suite!,
  });
  const html = sectionHtml(
    linalgSections(frame),
    "Breaking points by matrix size",
  );
  assert.match(html, /<th>task<\/th>/);
  assert.match(
    html,
    /<td>determinant<\/td><td class="num">120<\/td><td>4\.\d \[/,
  );
  assert.match(html, /the size where accuracy crosses 50%/);
});

Deno.test("crossingChart() draws nothing it cannot place when no group crosses", () => {
  const frame = pl.DataFrame(grid({ never: () => 20 }, SIZES, 5));
  const table = crossingTable(frame, { by: ["model", "family"] });
  const html = crossingChart(table).html;
  assert.equal(html.match(/<circle/g), null);
  assert.equal(html.match(/above all sizes asked/g)?.length, 2);
});
