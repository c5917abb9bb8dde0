/**
 * Each registered suite's declared headline metrics (loaded through the
 * registry) appear with the right values in the sweep's closing table,
 * `summary.csv` and the report's overview, on a small hand-made run whose
 * expected figures this file computes on its own: accuracy with Wilson's
 * interval and the format-valid rate (arithmetic), the subject mean and
 * HARD mean (C-Eval), pass@1, k, pass@k and the weighted score (code),
 * accuracy per matrix size (linalg). The run holds rows the one scored
 * rule leaves out (an unscored row, and an error row of a question
 * without a key) and one it keeps (an error row of a keyed question).
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import type { ResultRow } from "../../lib/types.ts";
import { loadSuites } from "../../lib/suites/registry.ts";
import {
  loadRuns,
  reportSections,
  summarizeResultsText,
  summaryText,
  writeSummaryCsv,
} from "../../lib/report/mod.ts";
import { cevalSummary } from "../../lib/suites/ceval/mod.ts";
import { resultRow, writeFakeRun } from "./_fixture.ts";

/** Wilson's 95% score interval, written out here to check the metric's. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const center = (p + z * z / (2 * n)) / (1 + z * z / n);
  const half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) /
    (1 + z * z / n);
  return [k === 0 ? 0 : center - half, k === n ? 1 : center + half];
}

/** C(n, k). */
function choose(n: number, k: number): number {
  if (k > n) return 0;
  let out = 1;
  for (let i = 0; i < k; i++) out = out * (n - i) / (i + 1);
  return out;
}

/** Unbiased pass@k of one problem: 1 − C(n−c, k) / C(n, k). */
const passAt = (n: number, c: number, k: number) =>
  1 - choose(n - c, k) / choose(n, k);

let count = 0;
/** One result row of model `m1`. */
function row(
  suite: string,
  template: string,
  status: ResultRow["status"],
  extra: Partial<ResultRow> = {},
): ResultRow {
  const i = count++;
  return resultRow({
    key: `m1|${suite}/q${i}|${template}|${extra.sample ?? 0}`,
    run: "metrics",
    model: "m1",
    suite,
    question_id: `${suite}/q${i}`,
    template,
    status,
    ...extra,
  });
}

const arithmetic = [
  row("arithmetic", "direct", "correct"),
  row("arithmetic", "direct", "correct"),
  row("arithmetic", "direct", "correct", { format_valid: false }),
  row("arithmetic", "direct", "wrong"),
  row("arithmetic", "direct", "error"),
];

/** A C-Eval row of a subject (hard or not), keyed or not. */
function ceval(
  subject: string,
  hard: boolean,
  status: ResultRow["status"],
  expected = "A",
): ResultRow {
  return row("ceval", "answer_only", status, {
    expected,
    dims: {
      subject,
      subject_zh: subject,
      category: hard ? "STEM" : "Humanities",
      level: "college",
      hard,
    },
  });
}

const cevalRows = [
  ceval("logic", false, "correct"),
  ceval("logic", false, "wrong"),
  ceval("logic", false, "error"), // keyed: counts, as not correct
  ceval("college_physics", true, "correct"),
  ceval("college_physics", true, "wrong"),
  ceval("college_physics", true, "parse_error"),
  ceval("law", false, "correct"),
  ceval("law", false, "unscored", ""), // no key: left out
  ceval("law", false, "error", ""), // no key, failed request: left out
];

/** A code row: problem, sample, passing or not (with the verdict's metrics). */
function code(problem: string, sample: number, pass: boolean): ResultRow {
  return row("code", "direct", pass ? "correct" : "wrong", {
    key: `m1|code/${problem}|direct|${sample}`,
    question_id: `code/${problem}`,
    sample,
    dims: {
      problem,
      source: "bank",
      language: "javascript",
      complexity: "O(n)",
      topic: "arrays",
      difficulty: "easy",
    },
    metrics: {
      functional_pass_rate: pass ? 1 : 0.5,
      complexity_met: pass,
      complexity_optimal: pass,
      edge_pass_rate: pass ? 1 : 0,
      large_pass: pass,
      perf_ratio: pass ? 0.8 : null,
    },
  });
}

const codeRows = [
  code("p1", 0, true),
  code("p1", 1, false),
  code("p1", 2, true),
  code("p2", 0, false),
  code("p2", 1, false),
];

const linalg = (size: number, status: ResultRow["status"]) =>
  row("linalg", "paper", status, {
    dims: { task: "determinant", size, tier: "recursive" },
  });

const linalgRows = [
  linalg(3, "correct"),
  linalg(3, "correct"),
  linalg(3, "wrong"),
  linalg(4, "wrong"),
  linalg(5, "correct"),
  linalg(5, "parse_error"),
];

/** What each suite's line must show, computed above by hand. */
const [arithLo, arithHi] = wilson(3, 5);
const [cevalLo, cevalHi] = wilson(3, 7);
const [linalgLo, linalgHi] = wilson(3, 6);
const EXPECTED: Record<string, Record<string, number>> = {
  arithmetic: {
    n: 5,
    accuracy: 3 / 5,
    acc_lo: arithLo,
    acc_hi: arithHi,
    format_valid_rate: 3 / 5,
  },
  ceval: {
    n: 7,
    accuracy: 3 / 7,
    acc_lo: cevalLo,
    acc_hi: cevalHi,
    // logic 1/3, college_physics 1/3, law 1/1; HARD: college_physics.
    subject_mean: (1 / 3 + 1 / 3 + 1) / 3,
    hard_mean: 1 / 3,
  },
  code: {
    n: 5,
    "pass@1": (2 / 3 + 0) / 2,
    k: 2,
    "pass@k": (passAt(3, 2, 2) + passAt(2, 0, 2)) / 2,
    // correctness, complexity and robustness 2/5 each; performance 1.6/5.
    score: 0.4 * 0.4 + 0.25 * 0.4 + 0.2 * 0.4 + 0.15 * (1.6 / 5),
  },
  linalg: {
    n: 6,
    accuracy: 3 / 6,
    acc_lo: linalgLo,
    acc_hi: linalgHi,
    accuracy_size_3: 2 / 3,
    accuracy_size_4: 0,
    accuracy_size_5: 1 / 2,
  },
};

/** The closing table's headers of each metric column. */
const LABELS: Record<string, Record<string, string>> = {
  arithmetic: { accuracy: "accuracy", format_valid_rate: "format ok" },
  ceval: {
    accuracy: "accuracy",
    subject_mean: "subject mean",
    hard_mean: "HARD mean",
  },
  code: { "pass@1": "pass@1", k: "k", "pass@k": "pass@k", score: "score" },
  linalg: {
    accuracy: "accuracy",
    accuracy_size_3: "3×3",
    accuracy_size_4: "4×4",
    accuracy_size_5: "5×5",
  },
};

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const shown = (name: string, x: number) => name === "k" ? String(x) : pct(x);

/** Header → cell of the line of `suite` in the text tables. */
function textLine(text: string, suite: string): Map<string, string> {
  const block = text.split("\n\n").find((b) =>
    b.split("\n")[1]?.startsWith(`${suite} `)
  );
  assert.ok(block, `no table of ${suite} in\n${text}`);
  const [header, line] = block.split("\n");
  const heads = header!.split(/\s{2,}/);
  const cells = line!.split(/\s{2,}/);
  assert.equal(cells.length, heads.length, block);
  return new Map(heads.map((h, i) => [h, cells[i]!]));
}

/** Header → cell of the overview table under `<h3>suite</h3>`. */
function overviewLine(html: string, suite: string): Map<string, string> {
  const at = html.indexOf(`<h3>${suite}</h3>`);
  assert.ok(at >= 0, `no overview table of ${suite}`);
  const table = html.slice(at, html.indexOf("</table>", at));
  const heads = [...table.matchAll(/<th>([^<]*)<\/th>/g)].map((m) => m[1]!);
  const body = table.slice(table.indexOf("<tbody>"));
  const cells = [...body.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]!);
  assert.equal(cells.length, heads.length, table);
  return new Map(heads.map((h, i) => [h, cells[i]!]));
}

Deno.test("each suite's declared metrics show in the closing table, summary.csv and the overview with the values worked out by hand", async () => {
  const suites = await loadSuites();
  const tmp = await Deno.makeTempDir();
  try {
    const dir = await writeFakeRun(tmp, "metrics", [
      ...arithmetic,
      ...cevalRows,
      ...codeRows,
      ...linalgRows,
    ], {});
    // The sweep's closing table (no Polars for arithmetic and linalg).
    const closing = await summarizeResultsText(dir, { suites });
    const loaded = await loadRuns(dir, { warn: false });
    // The same table from the frame, as the demo prints it.
    assert.equal(
      await summaryText(loaded.frame, ["suite", "model", "template"], {
        manifest: loaded.runs[0]!.manifest,
        runDir: dir,
        suites,
      }),
      closing,
    );
    const csv = parse(
      await Deno.readTextFile(await writeSummaryCsv(dir, { suites })),
      { columns: true },
    ) as Record<string, string>[];
    const overview = (await reportSections(loaded, { suites })).find((s) =>
      s.title === "Overview"
    )!.parts.join("");
    for (const [suite, want] of Object.entries(EXPECTED)) {
      const text = textLine(closing, suite);
      const record = csv.find((r) => r.suite === suite);
      const html = overviewLine(overview, suite);
      assert.ok(record, `no summary.csv line of ${suite}`);
      assert.equal(text.get("n"), String(want.n), suite);
      assert.equal(record.n, String(want.n), suite);
      assert.equal(html.get("n"), String(want.n), suite);
      for (const [name, value] of Object.entries(want)) {
        if (name === "n") continue;
        assert.ok(
          Math.abs(Number(record[name]) - value) < 1e-12,
          `${suite} ${name}: summary.csv has ${record[name]}, want ${value}`,
        );
        assert.equal(html.get(name), shown(name, value), `${suite} ${name}`);
        if (name === "acc_lo" || name === "acc_hi") continue;
        assert.equal(
          text.get(LABELS[suite]![name]!),
          shown(name, value),
          `${suite} ${name} in\n${closing}`,
        );
      }
      if ("acc_lo" in want) {
        assert.equal(
          text.get("95% CI"),
          `[${pct(want.acc_lo!)}, ${pct(want.acc_hi!)}]`,
        );
      }
      // A suite shows its own metrics and no other suite's.
      const others = Object.keys(LABELS).filter((s) => s !== suite)
        .flatMap((s) => Object.keys(LABELS[s]!))
        .filter((name) => !(name in want));
      for (const name of others) {
        assert.equal(html.has(name), false, `${suite} shows ${name}`);
        assert.equal(record[name], "", `${suite} fills ${name}`);
      }
    }
    // The C-Eval section's own summary counts the same rows.
    const [own] = cevalSummary(loaded.frame, { by: [] }).toRecords();
    assert.equal(own!.n, EXPECTED.ceval!.n);
    assert.equal(own!.average, EXPECTED.ceval!.subject_mean);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("rows of a suite without declared metrics show accuracy and the format-valid rate", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const rows = [
      row("toy", "t", "correct"),
      row("toy", "t", "wrong", { format_valid: false }),
    ];
    const dir = await writeFakeRun(tmp, "toy", rows, {});
    const text = textLine(await summarizeResultsText(dir), "toy");
    assert.equal(text.get("accuracy"), "50.0%");
    assert.equal(text.get("format ok"), "50.0%");
    const [line] = parse(await Deno.readTextFile(await writeSummaryCsv(dir)), {
      columns: true,
    }) as Record<string, string>[];
    assert.equal(line!.accuracy, "0.5");
    assert.equal(line!.format_valid_rate, "0.5");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a metric that cannot be computed leaves its cell empty and says why in a note", async () => {
  const suites = await loadSuites(["ceval"]);
  const tmp = await Deno.makeTempDir();
  try {
    // C-Eval rows without the subject dims: the subject mean cannot be had.
    const dir = await writeFakeRun(tmp, "bare", [
      row("ceval", "answer_only", "correct"),
      row("ceval", "answer_only", "wrong"),
    ], {});
    const closing = await summarizeResultsText(dir, { suites });
    const text = textLine(closing, "ceval");
    assert.equal(text.get("accuracy"), "50.0%");
    assert.equal(text.get("subject mean"), "-");
    assert.match(closing, /\nNote: ceval: subject mean not shown: .*subject/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
