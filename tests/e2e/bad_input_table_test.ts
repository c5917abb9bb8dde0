/**
 * Every bad input issue 12 lists, as a table: configs, datasets of every
 * suite, CLI flags and run folders given to `sweep --resume`, `report`,
 * `verify-key` and `forensics`. Each case spawns the CLI with its
 * `deno.json` task's permissions in a fresh folder and requires exit 2, a
 * message that names the file (and line, row or field where there is
 * one), no raw OS error or stack trace, and nothing created or changed.
 */
import assert from "node:assert/strict";
import { type Case, runTable } from "./_table.ts";

const MODELS = [{ name: "sim-strong", provider: "sim" }];
const ARITH = {
  name: "arithmetic",
  params: { families: ["add"], digits: [2], count: 1 },
};

/** A sweep config as text, outputs in `out/` of the case folder. */
function config(extra: Record<string, unknown>): string {
  return JSON.stringify({
    outputDir: "out",
    models: MODELS,
    suites: [ARITH],
    ...extra,
  });
}

const ROW = JSON.stringify({
  id: "a",
  suite: "arithmetic",
  text: "What is 1 + 1?",
  answer: { kind: "rational", value: "2" },
  dims: {},
});
const LINALG_HEADER = "Problem_ID,Subcat,problem_latex,answer_latex\n";
const CEVAL_HEADER = "id,question,A,B,C,D,answer\n";
const CEVAL_ROW = "0,1+1=?,1,2,3,4,B\n";
/** A manifest a resume or a report can read. */
const MANIFEST = JSON.stringify({
  format: "unaided-eval-run/1",
  run: "run",
  config: JSON.parse(config({ cache: false })),
  sessions: [],
});
const BAD_PROBLEM = JSON.stringify({ id: "broken", title: 3 });

/** The files of a run folder `run/` holding a manifest and no rows. */
const EMPTY_RUN = { "run/manifest.json": MANIFEST, "run/results.jsonl": "" };
/** A LinAlg-Bench row whose matrix has a short second row. */
const RAGGED_ROW =
  "C_2x2_det_001,determinant,A = \\begin{bmatrix} 1 & 2 \\\\ 3 \\end{bmatrix},\\det(A) = -2\n";

/** What a sweep case adds to `sweep c.json`. */
interface SweepExtras {
  /** Flags after `c.json`. */
  flags?: string[];
  /** Files beside `c.json`. */
  files?: Record<string, string>;
}

/** `sweep c.json …flags` where `c.json` is {@linkcode config} of `extra`. */
function sweepCase(
  name: string,
  extra: Record<string, unknown>,
  expect: RegExp[],
  { flags = [], files = {} }: SweepExtras = {},
): Case {
  return {
    name,
    cli: "sweep",
    args: ["c.json", ...flags],
    files: { "c.json": config(extra), ...files },
    expect,
  };
}

/** A sweep of the one suite entry `suite`, its dataset in `files`. */
function suiteCase(
  name: string,
  suite: Record<string, unknown>,
  files: Record<string, string>,
  expect: RegExp[],
): Case {
  return sweepCase(name, { suites: [suite] }, expect, { files });
}

/** The suite entries of the dataset cases. */
const frozen = (dataset: string) => ({
  name: "arithmetic",
  params: { dataset },
});
const linalgBench = (dataset: string) => ({
  name: "linalg",
  params: { source: "linalgbench", dataset },
});
const cevalRoot = { name: "ceval", params: { root: "ceval" } };
const cevalLaw = {
  name: "ceval",
  params: { root: "ceval", subjects: ["law"], split: "val" },
};
const codeBank = { name: "code", params: { dataset: "bank" } };

/** Every bad input, by area. */
const CASES: Case[] = [
  // Config files.
  {
    name: "config: syntax error",
    cli: "sweep",
    args: ["c.json"],
    files: { "c.json": '{\n  "models": [\n  }\n' },
    expect: [/c\.json/, /line 3, column 3/],
  },
  {
    name: "config: UTF-8 BOM and a syntax error",
    cli: "sweep",
    args: ["c.json"],
    files: { "c.json": '\ufeff{\n  "models": [\n  }\n' },
    expect: [/c\.json/, /line 3, column 3/],
  },
  sweepCase("config: unknown field", { bogus: 1 }, [
    /c\.json/,
    /unknown field "bogus"/,
  ]),
  sweepCase("config: bad types", { samples: "two", concurrency: -1 }, [
    /c\.json/,
    /samples/,
    /concurrency/,
  ]),
  {
    name: "config: missing file",
    cli: "sweep",
    args: ["nope.json"],
    expect: [/nope\.json/, /does not exist/],
  },
  {
    name: "config: a folder",
    cli: "sweep",
    args: ["cfg/"],
    files: { "cfg/": "" },
    expect: [/cfg/],
  },
  sweepCase("config: unknown suite", { suites: [{ name: "nosuch" }] }, [
    /c\.json/,
    /nosuch/,
  ]),
  sweepCase(
    "config: bad suite params",
    { suites: [{ name: "arithmetic", params: { digits: ["x"] } }] },
    [/c\.json/, /digits/],
  ),
  sweepCase("config: outputDir is a file", { outputDir: "taken" }, [/taken/], {
    files: { "taken": "x" },
  }),
  // Datasets, suite by suite.
  suiteCase(
    "arithmetic: broken JSONL line",
    frozen("q.jsonl"),
    { "q.jsonl": `${ROW}\nnot json\n` },
    [/q\.jsonl line 2/, /suites\[0\]/],
  ),
  suiteCase("arithmetic: missing dataset file", frozen("gone.jsonl"), {}, [
    /gone\.jsonl/,
  ]),
  suiteCase("arithmetic: empty dataset file", frozen("q.jsonl"), {
    "q.jsonl": "",
  }, [/q\.jsonl holds no questions/]),
  suiteCase(
    "linalg: ragged matrix in a LinAlg-Bench CSV",
    linalgBench("lb.csv"),
    { "lb.csv": LINALG_HEADER + RAGGED_ROW },
    [/lb\.csv/, /row 2/],
  ),
  suiteCase(
    "linalg: CSV without the answer column",
    linalgBench("lb.csv"),
    { "lb.csv": "Problem_ID,Subcat,problem_latex\nx,determinant,A\n" },
    [/lb\.csv/, /answer_latex/],
  ),
  suiteCase("linalg: missing dataset", linalgBench("gone"), {}, [/gone/]),
  suiteCase("linalg: header-only CSV", linalgBench("lb.csv"), {
    "lb.csv": LINALG_HEADER,
  }, [/lb\.csv holds no problems/]),
  suiteCase("ceval: root missing", cevalRoot, {}, [
    /root .*ceval does not exist/,
  ]),
  suiteCase("ceval: root is a file", cevalRoot, { "ceval": "x" }, [
    /root .*ceval is a file/,
  ]),
  suiteCase("ceval: answer E", cevalLaw, {
    "ceval/val/law_val.csv": CEVAL_HEADER + CEVAL_ROW + "1,1+2=?,1,2,3,4,E\n",
  }, [/law_val\.csv/, /row 2|line 3/, /answer/]),
  suiteCase("ceval: val CSV without an answer column", cevalLaw, {
    "ceval/val/law_val.csv": "id,question,A,B,C,D\n0,1+1=?,1,2,3,4\n",
  }, [/law_val\.csv has no "answer" column/, /add it/]),
  suiteCase("code: bank folder missing", codeBank, {}, [/bank/]),
  suiteCase("code: a bad problem in the bank", codeBank, {
    "bank/broken/problem.json": BAD_PROBLEM,
  }, [/broken/, /title/]),
  // Flags.
  sweepCase("sweep: unknown flag", {}, [/bogus/, /Usage/], {
    flags: ["--bogus"],
  }),
  sweepCase("sweep: --progress of an unknown kind", {}, [/fancy/, /Usage/], {
    flags: ["--progress", "fancy"],
  }),
  sweepCase("sweep: --limit 0", {}, [/--limit 0/, /Usage/], {
    flags: ["--limit", "0"],
  }),
  {
    name: "sweep: no config",
    cli: "sweep",
    args: [],
    expect: [/config/, /Usage/],
  },
  {
    name: "sweep: --resume with --run-dir",
    cli: "sweep",
    args: ["--resume", "run", "--run-dir", "other"],
    files: { "run/manifest.json": MANIFEST },
    expect: [/--run-dir/, /Usage/],
  },
  sweepCase("sweep: --run-dir is a file", {}, [/taken/, /--run-dir/], {
    flags: ["--run-dir", "taken"],
    files: { "taken": "x" },
  }),
  sweepCase("sweep: --run-dir holds a run", {}, [/run/, /--resume/], {
    flags: ["--run-dir", "run"],
    files: { "run/manifest.json": MANIFEST },
  }),
  sweepCase(
    "sweep: --run-dir without manifest holding rows of another plan",
    {},
    [/rows in run/, /not in its plan/, /other-model/],
    {
      flags: ["--run-dir", "run"],
      files: {
        "run/results.jsonl": JSON.stringify({
          key: "other-model|q|direct|0",
          model: "other-model",
          question_id: "q",
          template: "direct",
          sample: 0,
          status: "correct",
        }) + "\n",
      },
    },
  ),
  {
    name: "report: unknown flag",
    cli: "report",
    args: ["run", "--bogus"],
    files: EMPTY_RUN,
    expect: [/bogus/, /Usage/],
  },
  {
    name: "report: no run folder",
    cli: "report",
    args: [],
    expect: [/Usage/],
  },
  {
    name: "report: --out without a value",
    cli: "report",
    args: ["run", "--out"],
    files: EMPTY_RUN,
    expect: [/--out/, /Usage/],
  },
  {
    name: "verify-key: unknown flag",
    cli: "verify-key",
    args: ["--bogus", "k.csv"],
    files: { "k.csv": LINALG_HEADER },
    expect: [/bogus/, /Usage/],
  },
  {
    name: "verify-key: no file",
    cli: "verify-key",
    args: [],
    expect: [/Usage/],
  },
  {
    name: "forensics: no --judge",
    cli: "forensics",
    args: ["run"],
    files: EMPTY_RUN,
    expect: [/--judge is missing/, /Usage/],
  },
  {
    name: "forensics: --judge not JSON",
    cli: "forensics",
    args: ["run", "--judge", "{oops"],
    files: EMPTY_RUN,
    expect: [/--judge/, /JSON/],
  },
  {
    name: "forensics: unknown flag",
    cli: "forensics",
    args: ["run", "--judge", "sim-strong", "--bogus"],
    files: EMPTY_RUN,
    expect: [/bogus/, /Usage/],
  },
  // Run folders.
  {
    name: "sweep --resume: missing folder",
    cli: "sweep",
    args: ["--resume", "gone"],
    expect: [/gone/],
  },
  {
    name: "sweep --resume: a file",
    cli: "sweep",
    args: ["--resume", "taken"],
    files: { "taken": "x" },
    expect: [/taken/],
  },
  {
    name: "sweep --resume: a folder without a manifest",
    cli: "sweep",
    args: ["--resume", "run"],
    files: { "run/": "" },
    expect: [/run/, /not a run folder/],
  },
  {
    name: "sweep --resume: a broken manifest",
    cli: "sweep",
    args: ["--resume", "run"],
    files: { "run/manifest.json": '{"format": "unaided' },
    expect: [/manifest\.json/],
  },
  {
    name: "sweep --resume: a manifest without a config",
    cli: "sweep",
    args: ["--resume", "run"],
    files: { "run/manifest.json": '{"run": "x"}' },
    expect: [/manifest\.json/, /config/],
  },
  {
    name: "report: missing path",
    cli: "report",
    args: ["gone"],
    expect: [/gone/],
  },
  {
    name: "report: a file",
    cli: "report",
    args: ["taken"],
    files: { "taken": "x" },
    expect: [/taken/],
  },
  {
    name: "report: a folder that is not a run",
    cli: "report",
    args: ["notrun"],
    files: { "notrun/x.txt": "x" },
    expect: [/notrun/, /results\.jsonl/],
  },
  {
    name: "report: an empty run",
    cli: "report",
    args: ["run"],
    files: EMPTY_RUN,
    expect: [/run/, /no rows/],
  },
  {
    name: "report: a good run and a missing one",
    cli: "report",
    args: ["run", "gone"],
    files: {
      "run/manifest.json": MANIFEST,
      "run/results.jsonl": JSON.stringify({
        key: "k",
        model: "m",
        suite: "arithmetic",
        correct: true,
        status: "correct",
      }) + "\n",
    },
    expect: [/gone/],
  },
  {
    name: "report: garbage in the middle of results.jsonl",
    cli: "report",
    args: ["run"],
    files: {
      "run/manifest.json": MANIFEST,
      "run/results.jsonl": '{"key":"a"}\nnot json\n{"key":"b"}\n',
    },
    expect: [/results\.jsonl: line 2 is not a result row/],
  },
  {
    name: "verify-key: missing file",
    cli: "verify-key",
    args: ["gone.csv"],
    expect: [/gone\.csv/],
  },
  {
    name: "verify-key: not a CSV",
    cli: "verify-key",
    args: ["k.json"],
    files: { "k.json": '{"a": [1, 2, "x"]}\n' },
    expect: [/k\.json/, /Problem_ID/],
  },
  {
    name: "verify-key: header-only CSV",
    cli: "verify-key",
    args: ["k.csv"],
    files: { "k.csv": LINALG_HEADER },
    expect: [/k\.csv/, /no rows to verify/],
  },
  {
    name: "verify-key: ragged matrix",
    cli: "verify-key",
    args: ["k.csv"],
    files: {
      "k.csv": LINALG_HEADER + RAGGED_ROW,
    },
    expect: [/k\.csv/, /row 2/],
  },
  {
    name: "verify-key: a run folder (no CSV)",
    cli: "verify-key",
    args: ["run"],
    files: EMPTY_RUN,
    expect: [/run/, /\.csv/],
  },
  {
    name: "forensics: missing run folder",
    cli: "forensics",
    args: ["gone", "--judge", "sim-strong"],
    expect: [/gone/],
  },
  {
    name: "forensics: a folder that is not a run",
    cli: "forensics",
    args: ["notrun", "--judge", "sim-strong"],
    files: { "notrun/x.txt": "x" },
    expect: [/notrun/, /results\.jsonl/],
  },
];

/** Every path under `dir` with its size, to see that nothing changed. */
Deno.test("every bad input exits 2 with a message naming the file and creates nothing", async () => {
  const base = await Deno.makeTempDir({ prefix: "bad-input-table-" });
  try {
    assert.deepEqual(await runTable(base, CASES, "bad inputs"), []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
