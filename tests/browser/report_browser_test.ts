/**
 * Opens the HTML report and a rendered notebook in headless Chromium
 * (playwright-core driving /usr/bin/chromium; never a downloaded browser),
 * checks that the charts are drawn — SVG elements with marks that have a
 * size on screen — and saves screenshots under outputs/browser/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { launchChromium } from "./_chromium.ts";
import { executeNotebook } from "../../lib/report/mod.ts";
import { writeReport } from "../../lib/mod.ts";
import { fakeRows, writeFakeRun } from "../report/_fixture.ts";

const root = join(import.meta.dirname!, "../..");
const shots = join(root, "outputs/browser");

/** What the page shows of its charts, measured in the browser. */
interface Drawn {
  charts: number;
  drawnCharts: number;
  marks: number;
  titles: string[];
}

/** The little of the DOM the measurement uses (Deno's types have no DOM). */
interface Box {
  width: number;
  height: number;
}
interface Node {
  querySelectorAll(selector: string): ArrayLike<Node>;
  getBoundingClientRect(): Box;
  dataset: Record<string, string>;
}

function measureCharts(): Drawn {
  // Runs in the page.
  const doc = (globalThis as unknown as { document: Node }).document;
  const charts = [...Array.from(doc.querySelectorAll(".eval-chart"))];
  let marks = 0;
  let drawnCharts = 0;
  for (const chart of charts) {
    // The plot itself is the largest SVG (legend swatches are small ones).
    const boxes = Array.from(chart.querySelectorAll("svg")).map((s) =>
      s.getBoundingClientRect()
    );
    const box = boxes.sort((a, b) =>
      b.width * b.height - a.width * a.height
    )[0];
    const found = Array.from(
      chart.querySelectorAll(
        'g[aria-label="dot"] circle, g[aria-label="line"] path, g[aria-label="area"] path, g[aria-label="cell"] rect, g[aria-label="bar"] rect, g[aria-label="rule"] line',
      ),
    ).filter((m) => {
      const r = m.getBoundingClientRect();
      return r.width > 0 || r.height > 0;
    });
    marks += found.length;
    if (
      box && box.width > 100 && box.height > 50 && found.length > 0
    ) drawnCharts++;
  }
  return {
    charts: charts.length,
    drawnCharts,
    marks,
    titles: charts.map((c) => c.dataset.title ?? ""),
  };
}

Deno.test("the HTML report and a rendered notebook draw their charts in headless Chromium", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "browser-" });
  await Deno.mkdir(shots, { recursive: true });
  const context = await launchChromium(join(tmp, "profile"));
  try {
    const runDir = await writeFakeRun(
      tmp,
      "run",
      fakeRows({
        questions: 30,
        models: ["sim-strong", "sim-weak", "sim-reasoner"],
      }),
    );
    const report = await writeReport(runDir);
    const nb = await executeNotebook(
      join(root, "notebooks/00-overview.ipynb"),
      {
        outDir: join(tmp, "nb"),
        env: { EVAL_RUN_DIR: runDir },
      },
    );
    assert.deepEqual(nb.problems, []);

    // Charts are drawn near the viewport, the rest while idle and all of
    // them before printing; until then a placeholder holds the plot's size,
    // so drawing one moves nothing.
    const early = await context.newPage();
    await early.goto(`file://${report}`, { waitUntil: "domcontentloaded" });
    const printed = await early.evaluate(() => {
      const g = globalThis as unknown as {
        document: Node;
        dispatchEvent(e: unknown): void;
        Event: new (type: string) => unknown;
      };
      const left = () =>
        g.document.querySelectorAll("template.eval-lazy-svg").length;
      const before = left();
      g.dispatchEvent(new g.Event("beforeprint"));
      return { before, after: left() };
    });
    assert.equal(printed.after, 0, `beforeprint: ${JSON.stringify(printed)}`);
    await early.close();

    const page = await context.newPage();
    await page.goto(`file://${report}`, { waitUntil: "load" });
    const plotBoxes = () =>
      page.$$eval(
        ".eval-chart .eval-lazy, .eval-chart svg[viewBox]",
        (els) =>
          els.map((e) => {
            const r = (e as unknown as Node).getBoundingClientRect();
            return `${Math.round(r.width)}×${Math.round(r.height)}`;
          }),
      );
    // Sizes once the page has been laid out and painted twice: on a loaded
    // machine `load` can come before the first layout of the charts
    // beside the viewport (seen in CI: two boxes 0×0 at `load`, then
    // their plot's size), which no reader ever sees.
    const painted = () =>
      page.evaluate(() =>
        new Promise((done) => {
          const raf = (globalThis as unknown as {
            requestAnimationFrame(f: () => void): void;
          }).requestAnimationFrame;
          raf(() => raf(() => done(null)));
        })
      );
    await painted();
    const held = await plotBoxes();
    assert.ok(held.length >= 7, `plots: ${held.length}`);
    await page.waitForFunction(() =>
      (globalThis as unknown as { document: Node }).document
        .querySelectorAll("template.eval-lazy-svg").length === 0
    );
    // The same two paints after the last chart is drawn (CI once measured
    // the last four boxes at 0×0 straight after it, which a reader never
    // sees; the boxes' tags say what was measured if it happens again).
    await painted();
    assert.deepEqual(
      await plotBoxes(),
      held,
      `placeholders are plot-sized: ${await page.$$eval(
        ".eval-chart .eval-lazy, .eval-chart svg[viewBox]",
        (els) =>
          els.map((e) => (e as unknown as { tagName: string }).tagName).join(
            " ",
          ),
      )}`,
    );
    const r = await page.evaluate(measureCharts);
    assert.ok(r.charts >= 7, `report charts: ${JSON.stringify(r)}`);
    assert.equal(
      r.drawnCharts,
      r.charts,
      `every report chart should be drawn: ${JSON.stringify(r)}`,
    );
    assert.ok(r.marks > 50);
    await page.screenshot({ path: join(shots, "report.png"), fullPage: true });

    // The sample viewer lists rows and filters them.
    await page.waitForSelector("#viewer[data-ready=true]");
    const visible = () =>
      page.$$eval(
        "#vw-rows [data-key]",
        (rows) =>
          rows.map((row) => {
            const cells = Array.from(
              (row as unknown as Node).querySelectorAll("[data-col]"),
            ) as unknown as {
              dataset: Record<string, string>;
              textContent: string | null;
            }[];
            return Object.fromEntries(
              cells.map((c) => [c.dataset.col ?? "", c.textContent ?? ""]),
            );
          }),
      );
    const matching = async () =>
      Number(
        /^([\d,]+) of/.exec(await page.textContent("#vw-count") ?? "")?.[1]
          ?.replace(/,/g, "") ?? NaN,
      );
    const all = await visible();
    const before = await matching();
    assert.ok(all.length > 20, `viewer rows: ${all.length}`);
    assert.ok(new Set(all.map((r) => r.status)).size > 1);
    await page.selectOption('#viewer select[data-filter="status"]', "wrong");
    await page.selectOption(
      '#viewer select[data-filter="model"]',
      "sim-weak",
    );
    const filtered = await visible();
    const after = await matching();
    assert.ok(filtered.length > 0 && after > 0 && after < before);
    assert.ok(
      filtered.every((r) => r.status === "wrong" && r.model === "sim-weak"),
      JSON.stringify(filtered.slice(0, 3)),
    );
    assert.match(
      await page.textContent("#vw-count") ?? "",
      /^\d[\d,]* of [\d,]+ samples match/,
    );

    await page.goto(`file://${nb.html}`, { waitUntil: "load" });
    const n = await page.evaluate(measureCharts);
    assert.ok(n.charts >= 5, `notebook charts: ${JSON.stringify(n)}`);
    assert.equal(
      n.drawnCharts,
      n.charts,
      `every notebook chart should be drawn: ${JSON.stringify(n)}`,
    );
    await page.screenshot({
      path: join(shots, "00-overview.png"),
      fullPage: true,
    });
    for (const file of ["report.png", "00-overview.png"]) {
      assert.ok((await Deno.stat(join(shots, file))).size > 10_000);
    }
  } finally {
    await context.close();
    await Deno.remove(tmp, { recursive: true });
  }
});
