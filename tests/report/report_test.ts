import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { loadConfig, runSweep, SUITES, writeReport } from "../../lib/mod.ts";
import {
  escapeHtml,
  loadRuns,
  renderReport,
  reportSections,
  type SuiteView,
  writeIndexPage,
} from "../../lib/report/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";

const root = join(import.meta.dirname!, "../..");

/** The body rows of every `<table>` in a page. */
function tableBodyRows(html: string): number[] {
  return [...html.matchAll(/<table[\s\S]*?<\/table>/g)].map((m) => {
    const body = m[0].match(/<tbody>([\s\S]*?)<\/tbody>/)?.[1] ??
      m[0].replace(/<thead>[\s\S]*?<\/thead>/, "");
    return (body.match(/<tr/g) ?? []).length;
  });
}

/** The `<section>` whose heading is `title`. */
function section(html: string, title: string): string {
  const start = html.indexOf(`<h2>${title}</h2>`);
  assert.ok(start >= 0, `missing section ${title}`);
  const end = html.indexOf("</section>", start);
  return html.slice(start, end);
}

Deno.test("writeReport() writes a contents list, an overview, a section per suite and an explorer", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const rows = fakeRows({ questions: 30 });
    rows[1]!.response = "</script><img src=x onerror=alert(1)>";
    const dir = await writeFakeRun(tmp, "run", rows, {
      startedAt: "2026-01-01T00:00:00Z",
      endedAt: "2026-01-01T00:01:00Z",
    });
    const path = await writeReport(dir);
    assert.equal(path, join(dir, "report.html"));
    const html = await Deno.readTextFile(path);
    assert.match(html, /<nav><h2>Contents<\/h2>/);
    for (const title of ["Overview", "Suite: arithmetic", "Sample explorer"]) {
      assert.ok(html.includes(`<h2>${title}</h2>`), `missing ${title}`);
    }
    const suite = section(html, "Suite: arithmetic");
    for (
      const h of [
        "Accuracy by operand digits",
        "Accuracy by family",
        "Template cot against the baseline direct",
        "Models compared",
        "Outcome types",
        "Cost frontier",
        "Questions every model got wrong",
      ]
    ) assert.ok(suite.includes(`<h3>${h}`), `missing ${h}`);
    // level is declared with show: false.
    assert.doesNotMatch(suite, /Accuracy by level/);
    assert.ok((html.match(/class="eval-chart"/g) ?? []).length >= 7);
    assert.doesNotMatch(html, /(src|href)="https?:/);
    assert.ok(tableBodyRows(html).every((n) => n > 0));
    // Row text is JSON with < escaped, never markup.
    assert.doesNotMatch(html, /<img src=x/);
    assert.match(html, /\\u003c\/script>\\u003cimg/);
    // A run this small is embedded whole in the sample viewer, and says so.
    assert.match(html, /All 120 rows embedded\./);
    assert.match(html, /id="sample-detail"/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("reportSections() keeps suites apart and turns a failing suite section into a note", async () => {
  const frame = pl.DataFrame({
    model: ["a", "b", "a", "b"],
    suite: ["s", "s", "t", "t"],
    question_id: ["q1", "q1", "q2", "q2"],
    template: ["x", "x", "y", "z"],
    sample: [0, 0, 0, 0],
    status: ["correct", "wrong", "correct", "wrong"],
    correct: [true, false, true, false],
    level: ["easy", "hard", "k1", "k2"],
  });
  const s: SuiteView = {
    name: "s",
    description: "Suite S.",
    baseline: "x",
    dims: [{ name: "level", kind: "categorical", label: "difficulty" }],
    sections: () => Promise.reject(new Error("no size column")),
  };
  const sections = await reportSections(
    { frame, dims: ["level"], runs: [], warnings: [] },
    { suites: [s] },
  );
  assert.deepEqual(sections.map((x) => x.title), [
    "Leaderboard",
    "Overview",
    "Suite: s",
    "Suite: t",
    "Sample explorer",
  ]);
  const sHtml = sections[2]!.parts.join("\n");
  assert.match(sHtml, /Accuracy by difficulty/);
  assert.doesNotMatch(sHtml, /k1/);
  assert.match(sHtml, /Not shown for these rows: no size column/);
  const tHtml = sections[3]!.parts.join("\n");
  assert.match(tHtml, /No suite named t is registered/);
  // t's templates: y is its first, so z is compared with y, never with x.
  assert.doesNotMatch(tHtml, /baseline x/);
});

Deno.test("writeReport() puts two runs side by side, grouped by run", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const a = await writeFakeRun(
      tmp,
      "runA",
      fakeRows({ questions: 8, run: "runA", seed: 1 }),
    );
    const b = await writeFakeRun(
      tmp,
      "runB",
      fakeRows({ questions: 8, run: "runB", seed: 2 }),
    );
    const out = join(tmp, "both.html");
    assert.equal(await writeReport([a, b], { out }), out);
    const html = await Deno.readTextFile(out);
    assert.match(html, /Evaluation report: runA vs runB/);
    const overview = section(html, "Overview");
    assert.match(overview, /<th>run<\/th><th>suite<\/th><th>model<\/th>/);
    assert.match(overview, /runA/);
    assert.match(overview, /runB/);
    assert.match(section(html, "Suite: arithmetic"), /runB · m-good/);
    assert.ok(tableBodyRows(html).every((n) => n > 0));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the demo config's report has no empty table and a section per suite with its dims", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const { config, baseDir } = await loadConfig(
      join(root, "data/configs/demo.json"),
    );
    const runDir = await runSweep(config, {
      baseDir,
      runDir: join(tmp, "demo"),
      progress: "none",
      cache: false,
      limit: 12,
    }).then((r) => r.runDir);
    const html = await Deno.readTextFile(await writeReport(runDir));
    const counts = tableBodyRows(html);
    assert.ok(counts.length > 10);
    assert.deepEqual(counts.filter((n) => n === 0), []);
    const { frame, dims } = await loadRuns(runDir, { warn: false });
    for (const name of ["arithmetic", "linalg", "ceval"]) {
      const suite = SUITES.find((s) => s.name === name)!;
      const part = section(html, `Suite: ${name}`);
      assert.ok(part.includes(escapeHtml(suite.description)));
      const rows = frame.filter(pl.col("suite").eq(pl.lit(name)));
      const shown = suite.dims.filter((d) =>
        d.show !== false && dims.includes(d.name) &&
        rows.getColumn(d.name).unique().dropNulls().length > 1
      );
      assert.ok(shown.length > 0, `${name} shows no dim`);
      for (const d of shown) {
        assert.ok(
          part.includes(`<h3>Accuracy by ${escapeHtml(d.label)}</h3>`),
          `${name} lacks ${d.label}`,
        );
      }
    }
    // No chart of subject_zh (declared show: false) in any suite section;
    // the sample viewer may still offer it as a filter.
    for (const name of ["arithmetic", "linalg", "ceval"]) {
      assert.doesNotMatch(
        section(html, `Suite: ${name}`),
        /subject \(Chinese\)/,
      );
    }
    // Every suite with several templates in the demo includes its baseline,
    // so each is compared with it.
    assert.doesNotMatch(html, /Templates not compared/);
    for (
      const [suite, baseline, other] of [
        ["arithmetic", "direct", "cot"],
        ["ceval", "few_shot", "few_shot_cot"],
      ]
    ) {
      assert.ok(
        section(html, `Suite: ${suite}`).includes(
          `Template ${other} against the baseline ${baseline}`,
        ),
        `${suite}: ${other} not compared with ${baseline}`,
      );
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("renderReport() of an empty frame says there are no rows", async () => {
  const html = await renderReport(
    { frame: pl.DataFrame({}), dims: [], runs: [], warnings: [] },
    { title: "T" },
  );
  assert.match(html, /no result rows yet/);
});

Deno.test("deno task report prints the report and CSV paths, takes several runs, and fails clearly on a missing run", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const dir = await writeFakeRun(tmp, "run", fakeRows({ questions: 4 }));
    const dir2 = await writeFakeRun(
      tmp,
      "run2",
      fakeRows({ questions: 4, run: "run2" }),
    );
    const cli = join(import.meta.dirname!, "../../lib/cli/report.ts");
    const ok = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, dir, dir2],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(ok.code, 0, new TextDecoder().decode(ok.stderr));
    const lines = new TextDecoder().decode(ok.stdout).trim().split("\n");
    assert.deepEqual(lines.slice(0, 3), [
      join(dir, "report.html"),
      join(dir, "summary.csv"),
      join(dir2, "summary.csv"),
    ]);
    // Exactly two runs: the verdicts that flipped between them, per suite
    // and model (the same fake rows in both: none flipped).
    assert.match(lines[3]!, /^Verdicts flipped from fake to run2/);
    assert.deepEqual(lines.slice(5).map((l) => l.split(/\s+/)), [
      ["arithmetic", "m-bad", "8", "0", "0", "1.000"],
      ["arithmetic", "m-good", "8", "0", "0", "1.000"],
    ]);
    assert.match(await Deno.readTextFile(join(dir, "summary.csv")), /^model,/);
    const bad = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, join(tmp, "missing")],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(bad.code, 2);
    assert.match(new TextDecoder().decode(bad.stderr), /no such folder/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("writeIndexPage() links every rendered page and a run's report elsewhere", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const out = join(tmp, "notebooks");
    await Deno.mkdir(out);
    await Deno.writeTextFile(join(out, "00-overview.html"), "nb");
    await Deno.writeTextFile(join(out, "index.html"), "old");
    const run = await writeFakeRun(tmp, "run 1", fakeRows({ questions: 2 }));
    await Deno.writeTextFile(join(run, "report.html"), "r");
    const html = await Deno.readTextFile(
      await writeIndexPage(out, { extra: [join(run, "report.html")] }),
    );
    assert.match(html, /<a href="00-overview\.html">00-overview<\/a>/);
    assert.match(
      html,
      /<a href="\.\.\/run%201\/report\.html">report of run 1<\/a>/,
    );
    assert.doesNotMatch(html, /href="index\.html"/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
