import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import {
  accuracyByCategory,
  accuracyByDimension,
  accuracyHeatmap,
  type Chart,
  costFrontier,
  errorTypes,
  loadRuns,
  paretoFrontier,
} from "../../lib/report/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";

const rows = fakeRows({
  questions: 30,
  models: ["m-good", "m-bad", "m-good-2"],
});
const tmp = await Deno.makeTempDir();
const { frame } = await loadRuns(await writeFakeRun(tmp, "run", rows), {
  warn: false,
});
await Deno.remove(tmp, { recursive: true });

interface El {
  querySelectorAll(s: string): ArrayLike<El>;
  getAttribute(n: string): string | null;
}

/** The chart's DOM, to count marks by Plot's aria-label groups. */
function dom(chart: Chart): El {
  return (parseHTML(`<html><body>${chart.html}</body></html>`) as unknown as {
    document: El;
  }).document;
}

const count = (chart: Chart, selector: string) =>
  dom(chart).querySelectorAll(selector).length;

Deno.test("Chart shows itself as text/html in Jupyter", () => {
  const chart = accuracyByCategory(frame, "family");
  const display =
    (chart as unknown as Record<symbol, () => Record<string, string>>)[
      Symbol.for("Jupyter.display")
    ]!();
  assert.deepEqual(Object.keys(display), ["text/html"]);
  assert.equal(display["text/html"], chart.html);
  assert.equal(String(chart), chart.html);
});

Deno.test("accuracyByCategory() draws a dot and an interval per model and category", () => {
  const chart = accuracyByCategory(frame, "family");
  assert.equal(count(chart, 'g[aria-label="dot"] circle'), 3 * 2);
  assert.equal(count(chart, 'g[aria-label="rule"] line'), 3 * 2 + 2); // + the y = 0 rule per facet
  assert.equal(count(chart, 'g[aria-label="tick"] line'), 2 * 3 * 2);
});

Deno.test("accuracyByDimension() draws a line and a band per model", () => {
  const chart = accuracyByDimension(frame, "digits");
  assert.equal(count(chart, 'g[aria-label="line"] path'), 3);
  assert.equal(count(chart, 'g[aria-label="area"] path'), 3);
  assert.equal(count(chart, 'g[aria-label="dot"] circle'), 3 * 3);
});

Deno.test("accuracyHeatmap() draws a labelled cell per model and category", () => {
  const chart = accuracyHeatmap(frame, "level");
  assert.equal(count(chart, 'g[aria-label="cell"] rect'), 3 * 3);
  assert.equal(count(chart, 'g[aria-label="text"] text'), 3 * 3);
});

Deno.test("costFrontier() draws a dot per model and the frontier through the best", () => {
  const chart = costFrontier(frame);
  assert.equal(count(chart, 'g[aria-label="dot"] circle'), 3);
  assert.equal(count(chart, 'g[aria-label="line"] path'), 1);
  assert.match(chart.html, /mean completion tokens/);
});

Deno.test("errorTypes() stacks a bar per model and outcome", () => {
  const chart = errorTypes(frame);
  const pairs = new Set(
    rows.map((r) =>
      `${r.model}/${
        r.status === "wrong" && r.error_class
          ? `wrong: ${r.error_class}`
          : r.status
      }`
    ),
  );
  assert.equal(count(chart, 'g[aria-label="bar"] rect'), pairs.size);
});

Deno.test("paretoFrontier() keeps only points nothing beats on both cost and value", () => {
  const pts = [
    { c: 5, v: 0.5 },
    { c: 1, v: 0.2 },
    { c: 3, v: 0.6 },
    { c: 4, v: 0.55 },
    { c: 1, v: 0.1 },
  ];
  assert.deepEqual(
    paretoFrontier(pts, { cost: (p) => p.c, value: (p) => p.v }),
    [
      pts[1],
      pts[2],
    ],
  );
});
