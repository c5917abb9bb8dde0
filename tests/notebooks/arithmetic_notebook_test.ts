import assert from "node:assert/strict";
import { join } from "node:path";
import { LLMMATH_PUBLISHED_AVERAGE } from "../../lib/suites/arithmetic/mod.ts";
import { executeNotebook, type NotebookJson } from "../../lib/report/mod.ts";

const root = join(import.meta.dirname!, "../..");
const notebook = join(root, "notebooks/01-arithmetic.ipynb");

const text = (s: string | string[] | undefined) =>
  Array.isArray(s) ? s.join("") : (s ?? "");

type Cell = NotebookJson["cells"][number];
const source = (c: Cell) => text(c.source);
const html = (c: Cell) =>
  (c.outputs ?? []).map((o) => text(o.data?.["text/html"])).join("");
const plain = (c: Cell) =>
  (c.outputs ?? []).map((o) => text(o.data?.["text/plain"]) + text(o.text))
    .join("");

Deno.test("01-arithmetic runs headless with every chart drawn and every table filled", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "nb-arith-" });
  try {
    const runs = join(tmp, "runs");
    const r = await executeNotebook(notebook, {
      outDir: join(tmp, "out"),
      env: {
        EVAL_OUTPUT_DIR: runs,
        EVAL_COUNT: "2",
        EVAL_CALIBRATION_COUNT: "30",
      },
    });
    assert.deepEqual(r.problems, [], r.log);

    const nb = JSON.parse(await Deno.readTextFile(r.ipynb)) as NotebookJson;
    const cells = nb.cells.filter((c) => c.cell_type === "code");
    const tagged = (tag: string) =>
      cells.filter((c) => c.metadata?.tags?.includes(tag));

    // Every cell that should show something does.
    const silent = tagged("no-output");
    for (const c of cells) {
      if (silent.includes(c)) continue;
      assert.ok(
        (c.outputs ?? []).length > 0,
        `cell shows nothing: ${source(c)}`,
      );
    }

    // Charts: every expect-svg cell holds an <svg> with drawn marks, and the
    // HTML export keeps them all.
    const charts = tagged("expect-svg");
    for (
      const chart of [
        "accuracyByDigits",
        "accuracyByCategory",
        "errorTypes",
        "errorClassChart",
        "accuracyAgainstTokens",
        "bareVsToolChart",
        "llmmathCalibrationChart",
        "crossingChart",
        "predictedAccuracyChart",
      ]
    ) {
      assert.ok(
        charts.some((c) => source(c).includes(`${chart}(`)),
        `no expect-svg cell draws ${chart}`,
      );
    }
    for (const c of charts) {
      assert.match(html(c), /<svg[\s\S]*<(circle|path|rect|line)[\s>]/);
    }
    const exported = await Deno.readTextFile(r.html);
    assert.equal(
      exported.match(/class="eval-chart"/g)?.length,
      charts.length,
    );

    // Tables: each cell that calls table(...) shows a filled table.
    const tables = cells.filter((c) => /\btable\(/.test(source(c)));
    for (
      const frame of [
        "summarize",
        "breakingPoints",
        "breakingPointMatrix",
        "errorClassTable",
        "compareTemplates",
        "bareVsTool",
        "llmmathTable",
        "llmmathCalibration",
        "crossings.select",
        "carryEffectTable",
        "templateEffectTable",
        "leastExpectedTable",
        "adaptiveDesigns",
      ]
    ) {
      assert.ok(
        tables.some((c) => source(c).includes(`${frame}(`)),
        `no cell shows a table of ${frame}`,
      );
    }
    for (const c of tables) {
      const h = html(c);
      assert.match(h, /<table class="eval-table">/, source(c));
      assert.match(h, /<tbody>\n<tr>/, `empty table: ${source(c)}`);
    }

    // Breaking points with intervals: some group crosses 50% inside the
    // digits asked (mean [low, high]) and the chart draws its interval.
    const crossings = tables.find((c) =>
      /crossings\.select\(/.test(source(c))
    )!;
    assert.match(html(crossings), /<td>\d+\.\d \[\d+\.\d, \d+\.\d\]<\/td>/);
    const crossingChart = charts.find((c) =>
      /crossingChart\(/.test(source(c))
    )!;
    assert.match(html(crossingChart), /aria-label="rule"[\s\S]*<line/);

    // The adaptive sweep: each design's crossing with its interval, and
    // the rows it asked next to what the grid would need.
    const designs = tables.find((c) => /adaptiveDesigns\(/.test(source(c)))!;
    assert.match(html(designs), /<td>\d+\.\d \[\d+\.\d, \d+\.\d\]<\/td>/);
    assert.equal(html(designs).match(/<td>mul<\/td>/g)?.length, 3);

    // The headline table shows the metrics the suite declares, filled.
    const headline = cells.find((c) => /headlineTable\(/.test(source(c)))!;
    assert.match(
      html(headline),
      /<th>n<\/th><th>accuracy<\/th><th>acc_lo<\/th><th>acc_hi<\/th><th>format_valid_rate<\/th>/,
    );
    assert.match(html(headline), /<tbody>\n<tr><td>sim-average<\/td>/);

    // The four sweeps ran to completion, each in its own run folder.
    const bars = cells.flatMap((c) =>
      html(c).match(/<progress value="(\d+)" max="\1">/g) ?? []
    );
    assert.equal(bars.length, 4);
    const folders: string[] = [];
    for await (const e of Deno.readDir(runs)) {
      if (e.isDirectory && !e.name.startsWith(".")) folders.push(e.name);
    }
    assert.deepEqual(
      folders.map((f) => f.replace(/-\d{8}-\d{6}$/, "")).sort(),
      ["adaptive", "arithmetic", "calibration", "llmmath"],
    );

    // The llmmath table: Q1…Q7, one row per sim model and the Average row.
    const llmmath = tables.find((c) => /llmmathTable\(/.test(source(c)))!;
    const head = html(llmmath).match(/<thead>[\s\S]*?<\/thead>/)![0];
    for (let i = 1; i <= 7; i++) assert.match(head, new RegExp(`>Q${i}<`));
    const rows = html(llmmath).match(/<tr><td>[^<]+<\/td>/g) ?? [];
    assert.equal(rows.length, 5 + 1);
    assert.match(rows.at(-1)!, />Average</);

    // The calibration table shows every published average beside the sim.
    const calibration = tables.find((c) =>
      /llmmathCalibration\(/.test(source(c))
    )!;
    for (const rate of LLMMATH_PUBLISHED_AVERAGE) {
      assert.match(
        html(calibration),
        new RegExp(`>${(rate * 100).toFixed(1)}%<`),
      );
    }
    const summary = cells.find((c) => /calibrationSummary\(/.test(source(c)))!;
    assert.match(
      plain(summary),
      /sim-average: \d of 7 published averages lie inside its 95% interval \(n = 30 per size\)/,
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
