/**
 * Opens the HTML report and a rendered notebook in headless Chromium
 * (playwright-core driving /usr/bin/chromium; never a downloaded browser),
 * checks that the charts are drawn — SVG elements with marks that have a
 * size on screen — and saves screenshots under outputs/browser/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { executeNotebook } from "../../lib/report/mod.ts";
import { writeReport } from "../../lib/mod.ts";
import { fakeRows, writeFakeRun } from "../report/_fixture.ts";

const root = join(import.meta.dirname!, "../..");
const CHROMIUM = Deno.env.get("EVAL_CHROMIUM") ?? "/usr/bin/chromium";
const shots = join(root, "outputs/browser");

async function launch(userDataDir: string) {
  try {
    await Deno.stat(CHROMIUM);
  } catch {
    throw new Error(
      `Cannot run the browser test: ${CHROMIUM} is missing (apt-get install -y chromium; tests/setup.sh does it as root)`,
    );
  }
  return await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1100, height: 900 },
  });
}

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
  const context = await launch(join(tmp, "profile"));
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

    const page = await context.newPage();
    await page.goto(`file://${report}`, { waitUntil: "load" });
    const r = await page.evaluate(measureCharts);
    assert.ok(r.charts >= 7, `report charts: ${JSON.stringify(r)}`);
    assert.equal(
      r.drawnCharts,
      r.charts,
      `every report chart should be drawn: ${JSON.stringify(r)}`,
    );
    assert.ok(r.marks > 50);
    await page.screenshot({ path: join(shots, "report.png"), fullPage: true });

    // The sample explorer draws rows and filters them.
    const visible = () =>
      page.$$eval(
        "#explorer-rows tbody tr",
        (trs) =>
          trs.map((tr) => {
            const cells = Array.from(
              (tr as unknown as Node).querySelectorAll("td[data-col]"),
            ) as unknown as {
              dataset: Record<string, string>;
              textContent: string | null;
            }[];
            return Object.fromEntries(
              cells.map((td) => [td.dataset.col ?? "", td.textContent ?? ""]),
            );
          }),
      );
    const all = await visible();
    assert.ok(all.length > 50, `explorer rows: ${all.length}`);
    assert.ok(new Set(all.map((r) => r.status)).size > 1);
    await page.selectOption('#explorer select[data-filter="status"]', "wrong");
    await page.selectOption(
      '#explorer select[data-filter="model"]',
      "sim-weak",
    );
    const filtered = await visible();
    assert.ok(filtered.length > 0 && filtered.length < all.length);
    assert.ok(
      filtered.every((r) => r.status === "wrong" && r.model === "sim-weak"),
      JSON.stringify(filtered.slice(0, 3)),
    );
    assert.match(
      await page.textContent("#explorer-count") ?? "",
      new RegExp(`^${filtered.length} matching rows`),
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
