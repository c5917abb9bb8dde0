/**
 * Incomplete results say so: the report (a warning at the top, rows
 * planned, stored and error rows in the overview), `summary.csv` and the
 * sweep's closing table, for real sim sweeps that are complete, miss rows,
 * were interrupted, hold error rows, or were merged from shards and then
 * lost rows; and `plannedRows()` never shows a planned count it cannot
 * vouch for.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { parseHTML } from "linkedom";
import { parseConfig, runSweep, SUITES, writeReport } from "../../lib/mod.ts";
import { mergeShards } from "../../lib/merge/mod.ts";
import { createProvider } from "../../lib/providers/mod.ts";
import type { ProviderFactory } from "../../lib/runner/mod.ts";
import {
  completeness,
  plannedRows,
  summarizeResultsText,
  writeSummaryCsv,
} from "../../lib/report/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import type { SweepConfig } from "../../lib/config/mod.ts";

const MODELS = ["sim-average", "sim-strong"];

/** Two sim models, one suite on its default templates (arithmetic: `direct`). */
function config(outputDir: string, extra: Record<string, unknown> = {}) {
  return parseConfig({
    outputDir,
    cache: false,
    retries: 0,
    models: MODELS.map((name) => ({ name, provider: "sim" })),
    suites: [{
      name: "arithmetic",
      params: { families: ["add"], digits: [2], count: 6 },
    }],
    ...extra,
  }, "completeness");
}

/** The sim's provider, with each call passed through `wrap`. */
function wrapped(
  wrap: (
    model: string,
    call: () => ReturnType<ReturnType<ProviderFactory>["complete"]>,
  ) => ReturnType<ReturnType<ProviderFactory>["complete"]>,
): ProviderFactory {
  return (model, sweep, options) => {
    const inner = createProvider(model, sweep, options);
    return {
      name: inner.name,
      complete: (prompt, options) =>
        wrap(model.name, () => inner.complete(prompt, options)),
    };
  };
}

async function sweep(
  cfg: SweepConfig,
  runDir: string,
  extra: Parameters<typeof runSweep>[1] = {},
) {
  return await runSweep(cfg, { progress: "none", runDir, ...extra });
}

interface Row {
  key: string;
  model: string;
  status: string;
}

async function rowsOf(runDir: string): Promise<Row[]> {
  return (await Deno.readTextFile(join(runDir, "results.jsonl"))).split("\n")
    .filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** Drops the rows `drop` picks from results.jsonl, as a lost write would. */
async function dropRows(runDir: string, drop: (row: Row) => boolean) {
  const lines = (await Deno.readTextFile(join(runDir, "results.jsonl")))
    .split("\n").filter((l) => l !== "");
  const kept = lines.filter((l) => !drop(JSON.parse(l)));
  await Deno.writeTextFile(
    join(runDir, "results.jsonl"),
    kept.map((l) => l + "\n").join(""),
  );
  return lines.length - kept.length;
}

/** Rows stored and error rows per model, counted from results.jsonl. */
async function countsOf(runDir: string) {
  const out = new Map(MODELS.map((m) => [m, { stored: 0, errors: 0 }]));
  for (const row of await rowsOf(runDir)) {
    const c = out.get(row.model)!;
    c.stored++;
    if (row.status === "error") c.errors++;
  }
  return out;
}

/** The little of linkedom's DOM these tests read. */
interface El {
  tagName: string;
  textContent: string | null;
  children: ArrayLike<El>;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El>;
}

interface Outputs {
  /** The report page. */
  html: string;
  /** Its warning at the top, if any. */
  warning: El | null;
  warningBeforeSections: boolean;
  overview: Record<string, string>[];
  csv: Record<string, string>[];
  text: string;
}

/** The report, summary.csv and closing table of a run, read back. */
async function outputs(runDir: string): Promise<Outputs> {
  const html = await Deno.readTextFile(await writeReport(runDir));
  const { document } = parseHTML(html) as unknown as {
    document: El & { body: El };
  };
  const children = Array.from(document.body.children);
  const warning = document.querySelector("#run-warning");
  const firstSection = children.findIndex((e) => e.tagName === "SECTION");
  const overviewSection = Array.from(document.querySelectorAll("section")).find(
    (s) => s.querySelector("h2")?.textContent === "Overview",
  )!;
  const table = overviewSection.querySelector("table")!;
  const header = Array.from(table.querySelectorAll("thead th")).map((th) =>
    th.textContent ?? ""
  );
  const overview = Array.from(table.querySelectorAll("tbody tr")).map((tr) =>
    Object.fromEntries(
      Array.from(tr.querySelectorAll("td")).map((td, i) => [
        header[i]!,
        td.textContent ?? "",
      ]),
    )
  );
  const csv = parse(await Deno.readTextFile(await writeSummaryCsv(runDir)), {
    columns: true,
  }) as Record<string, string>[];
  return {
    html,
    warning,
    warningBeforeSections: warning !== null && firstSection >= 0 &&
      children.indexOf(warning) < firstSection,
    overview,
    csv,
    text: await summarizeResultsText(join(runDir, "results.jsonl")),
  };
}

/** The closing table's line of a model: [planned, stored, error rows, n]. */
function textLine(text: string, model: string): string[] {
  const line = text.split("\n").find((l) =>
    l.startsWith("arithmetic") && l.split(/\s+/)[1] === model
  );
  assert.ok(line, `no line for ${model} in\n${text}`);
  return line.split(/\s+/).slice(2, 6);
}

/** Checks the three outputs show `planned`, stored and error rows per model. */
function assertCounts(
  out: Outputs,
  planned: number | null,
  counts: Map<string, { stored: number; errors: number }>,
) {
  assert.match(
    out.text.split("\n")[0]!,
    /^suite\s+model\s+planned\s+stored\s+error rows\s+n\s+accuracy/,
  );
  assert.deepEqual(
    Object.keys(out.overview[0]!).slice(0, 5),
    ["suite", "model", "planned", "stored", "error_rows"],
  );
  for (const [model, { stored, errors }] of counts) {
    const o = out.overview.find((r) => r.model === model);
    assert.ok(o, `no overview row for ${model}`);
    assert.deepEqual(
      [o.planned, o.stored, o.error_rows],
      [
        planned === null ? "–" : String(planned),
        String(stored),
        String(errors),
      ],
      model,
    );
    const c = out.csv.find((r) => r.model === model);
    assert.ok(c, `no summary.csv row for ${model}`);
    assert.deepEqual(
      [c.planned, c.stored, c.missing, c.error_rows],
      planned === null ? ["", String(stored), "", String(errors)] : [
        String(planned),
        String(stored),
        String(planned - stored),
        String(
          errors,
        ),
      ],
      model,
    );
    assert.deepEqual(
      textLine(out.text, model).slice(0, 3),
      [
        planned === null ? "?" : String(planned),
        String(stored),
        String(errors),
      ],
      model,
    );
  }
}

Deno.test("a complete run without error rows: planned = stored everywhere, and no warning", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const run = join(tmp, "clean");
    const result = await sweep(config(tmp), run);
    const planned = result.total / MODELS.length;
    const out = await outputs(run);
    assert.equal(out.warning, null);
    assert.doesNotMatch(out.html, /Warning: incomplete results/);
    assert.match(
      out.html,
      new RegExp(`: ${result.total} of ${result.total} planned rows`),
    );
    assertCounts(out, planned, await countsOf(run));
    assert.doesNotMatch(out.text, /Warning|Note/);
    assert.equal(out.text.split("\n").length, 1 + MODELS.length);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a run that lost rows from results.jsonl warns at the top and counts the missing rows per model", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const run = join(tmp, "lost");
    const result = await sweep(config(tmp), run);
    const planned = result.total / MODELS.length;
    let seen = 0;
    const lost = await dropRows(
      run,
      (row) => row.model === "sim-strong" && seen++ < 4,
    );
    assert.equal(lost, 4);
    const out = await outputs(run);
    assert.ok(out.warning, "no warning");
    assert.ok(
      out.warningBeforeSections,
      "the warning is not above the sections",
    );
    const said = out.warning.textContent ?? "";
    const stored = result.total - 4;
    assert.match(
      said,
      new RegExp(
        `Incomplete: ${stored} of ${result.total} planned rows are stored \\(4 missing\\)`,
      ),
    );
    assert.match(
      said,
      new RegExp(
        `The manifest counted ${result.total} rows stored: 4 have gone from results\\.jsonl since`,
      ),
    );
    assert.match(said, new RegExp(`deno task sweep --resume ${run}`));
    // The warning's table names the model that lacks rows, and only it.
    const cells = Array.from(out.warning.querySelectorAll("tbody tr")).map((
      tr,
    ) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent));
    assert.deepEqual(cells, [[
      "arithmetic",
      "sim-strong",
      String(planned),
      String(planned - 4),
      "4",
      "0",
    ]]);
    assertCounts(out, planned, await countsOf(run));
    assert.match(
      out.text,
      new RegExp(
        `\\nWarning: Incomplete: ${stored} of ${result.total} planned rows are stored \\(4 missing\\)`,
      ),
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("an interrupted sweep says so at the top, with rows stored against planned", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const run = join(tmp, "interrupted");
    const controller = new AbortController();
    const stopped = new Promise((resolve) =>
      controller.signal.addEventListener("abort", resolve)
    );
    let answered = 0;
    const result = await sweep(config(tmp), run, {
      signal: controller.signal,
      // sim-average answers three calls and its fourth stops the sweep;
      // sim-strong's calls hang until then. Stopped calls come back
      // aborted, and aborted calls are never written.
      createProvider: wrapped(async (model, call) => {
        const completion = await call();
        if (model === "sim-average" && ++answered <= 3) return completion;
        if (model === "sim-average") controller.abort();
        await stopped;
        return {
          ...completion,
          text: "",
          error: { kind: "aborted", message: "stopped" },
        };
      }),
    });
    assert.equal(result.interrupted, true);
    assert.equal((await readManifest(run)).interrupted, true);
    const counts = await countsOf(run);
    assert.deepEqual(counts.get("sim-average"), { stored: 3, errors: 0 });
    assert.deepEqual(counts.get("sim-strong"), { stored: 0, errors: 0 });
    const planned = result.total / MODELS.length;
    const out = await outputs(run);
    assert.ok(out.warning && out.warningBeforeSections);
    assert.match(
      out.warning.textContent ?? "",
      new RegExp(
        `Interrupted: the run's last session was stopped before its work was done; 3 of ${result.total} planned rows are stored \\(${
          result.total - 3
        } missing\\)`,
      ),
    );
    // sim-strong has no row stored and still has its line everywhere.
    assertCounts(out, planned, counts);
    assert.equal(out.overview.find((r) => r.model === "sim-strong")?.n, "0");
    assert.deepEqual(textLine(out.text, "sim-strong"), [
      String(planned),
      "0",
      "0",
      "0",
    ]);
    assert.match(out.text, /\nWarning: Interrupted: /);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("error rows are counted per model and warned about, though every planned row is stored", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const run = join(tmp, "errors");
    let failed = 0;
    const result = await sweep(config(tmp), run, {
      createProvider: wrapped(async (model, call) => {
        const completion = await call();
        if (model !== "sim-average" || failed >= 2) return completion;
        failed++;
        return {
          ...completion,
          text: "",
          error: { kind: "server", message: "HTTP 503" },
        };
      }),
    });
    assert.equal(result.errors, 2);
    const planned = result.total / MODELS.length;
    const out = await outputs(run);
    assert.ok(out.warning && out.warningBeforeSections);
    const said = out.warning.textContent ?? "";
    assert.match(said, /2 error rows: requests that failed for good/);
    assert.doesNotMatch(said, /Incomplete|Interrupted/);
    const counts = await countsOf(run);
    assert.deepEqual(counts.get("sim-average"), { stored: planned, errors: 2 });
    assertCounts(out, planned, counts);
    assert.match(out.text, /\nWarning: 2 error rows: /);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a merged run that lost rows warns of a merge with gaps; a shard alone shows no planned count per model", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const cfg = config(tmp, {
      suites: [{
        name: "arithmetic",
        params: { families: ["add"], digits: [2], count: 6 },
        templates: ["direct", "cot"],
      }],
    });
    const shards = [];
    for (const index of [1, 2]) {
      const dir = join(tmp, `shard${index}`);
      await sweep(cfg, dir, { shard: { index, count: 2 } });
      shards.push(dir);
    }
    // A shard alone: its total is known, its rows per model are not.
    const shard = await outputs(shards[0]!);
    assert.equal(shard.warning, null);
    assert.match(
      shard.html,
      /Rows planned per suite and model are not shown: the run is shard 1\/2 of a sweep/,
    );
    assert.match(
      shard.text,
      /\nNote: Rows planned per suite and model are not shown: the run is shard 1\/2/,
    );
    assert.ok(shard.overview.every((r) => r.planned === "–"));
    assert.ok(shard.csv.every((r) => r.planned === "" && r.missing === ""));

    const merged = join(tmp, "merged");
    const { rows } = await mergeShards(shards, { suites: SUITES, out: merged });
    const planned = rows / MODELS.length / 2; // per model × template
    let seen = 0;
    await dropRows(merged, (row) => row.key.endsWith("|cot|0") && seen++ < 3);
    const out = await outputs(merged);
    assert.ok(out.warning && out.warningBeforeSections);
    assert.match(
      out.warning.textContent ?? "",
      new RegExp(
        `Merged from 2 shards with gaps: ${
          rows - 3
        } of ${rows} planned rows are stored \\(3 missing\\)`,
      ),
    );
    // Several templates: the closing table and the CSV have a line per template.
    const missing = out.csv.filter((r) => r.missing !== "0");
    assert.equal(
      missing.reduce((n, r) => n + Number(r.missing), 0),
      3,
    );
    assert.ok(missing.every((r) => r.template === "cot"));
    assert.ok(out.csv.every((r) => r.planned === String(planned)));
    assert.match(
      out.text.split("\n")[0]!,
      /^suite\s+model\s+template\s+planned/,
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("plannedRows() trusts templates seen in rows only when they add up to the planned total", () => {
  const manifest = {
    config: {
      models: [{ name: "a" }, { name: "b" }],
      samples: 1,
      suites: [{ name: "s" }, { name: "t", templates: ["x"] }],
    },
    questions: { s: 5, t: 2 },
    total: 2 * (5 * 2 + 2), // s runs two default templates
  };
  // Both of s's templates have rows: the plan adds up.
  const whole = plannedRows(
    manifest,
    new Map([["s", new Set(["d1", "d2"])], ["t", new Set(["x"])]]),
  );
  assert.deepEqual(whole.unknown, []);
  assert.equal(whole.cells.length, 2 * 3);
  // Only one of them has rows: s's planned count is unknown (not 5), t's
  // (listed in the config) is still known, and so is the total.
  const part = plannedRows(manifest, new Map([["s", new Set(["d1"])]]));
  assert.deepEqual(part.unknown.map((u) => u.suite), ["s"]);
  assert.equal(part.total, 24);
  const c = completeness(part, {
    by: ["suite", "model"],
    stored: [
      { keys: ["s", "a"], stored: 5, errors: 0 },
      { keys: ["t", "a"], stored: 2, errors: 0 },
    ],
  });
  assert.deepEqual(
    c.lines.map((l) => [...l.keys, l.planned, l.stored]),
    [["s", "a", null, 5], ["t", "a", 2, 2], ["t", "b", 2, 0]],
  );
  assert.match(c.warnings[0]!, /^Incomplete: 7 of 24 planned rows/);
  assert.match(c.notes[0]!, /^Rows planned of suite s are not shown: /);
  // A total that does not add up with every template listed: nothing per group.
  const odd = plannedRows({
    ...manifest,
    config: {
      ...manifest.config,
      suites: [{ name: "s", templates: ["d1"] }, {
        name: "t",
        templates: ["x"],
      }],
    },
  });
  assert.deepEqual(odd.cells, []);
  assert.match(odd.unknown[0]!.why, /planned total \(24\) is not .* \(14\)/);
  // An old or hand-made manifest, or none.
  assert.equal(plannedRows({ run: "r" }).total, null);
  assert.match(plannedRows(null).unknown[0]!.why, /no readable manifest/);
});
