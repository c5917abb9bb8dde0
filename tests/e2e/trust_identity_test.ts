/**
 * Issue 40's mechanisms of run identity, run membership, the one output
 * guard and the flags that expect a run folder, as a table over the
 * commands: each case starts from a real run made in its own folder
 * (arithmetic questions from a small dataset file beside the config), does
 * what a user would (edits the dataset, appends another run's row, gives a
 * path through a symlink or `..`), and requires the exit code, a message
 * naming the file, flag or run, no stack trace, and a byte-identical tree
 * where the command refused. The cases that must succeed (an
 * execution-only change on resume, a foreign row set aside, the same run
 * given twice) check what they wrote.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { type Case, runCase, taskArgs } from "./_table.ts";
import { ROOT } from "./_cli.ts";

/** The first six questions of the shipped frozen set: the dataset file. */
const DATASET = Deno.readTextFileSync(`${ROOT}/data/arithmetic/frozen.jsonl`)
  .split("\n").slice(0, 6).join("\n") + "\n";

/** The sweep config, its dataset beside it, outputs in `out/`. */
function config(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    outputDir: "out",
    cache: false,
    models: [{ name: "sim-strong", provider: "sim" }],
    suites: [{ name: "arithmetic", params: { dataset: "q.jsonl" } }],
    ...extra,
  });
}

/** Runs a task in `dir` and requires it to succeed. */
async function task(dir: string, name: string, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...taskArgs(name), ...args],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(
    out.code,
    0,
    `${name} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
  );
}

/** Makes the run `run/` (6 rows) from `c.json` and `q.jsonl` in `dir`. */
async function makeRun(dir: string): Promise<void> {
  await task(dir, "sweep", [
    "c.json",
    "--run-dir",
    "run",
    "--progress",
    "none",
  ]);
}

/** The rows of a results file. */
async function rows(path: string): Promise<Record<string, unknown>[]> {
  return (await Deno.readTextFile(path)).split("\n").filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** Appends a row to the run's results: one of its own, changed by `edit`. */
async function appendRow(
  dir: string,
  edit: (row: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  const path = join(dir, "run", "results.jsonl");
  const [first] = await rows(path);
  await Deno.writeTextFile(path, JSON.stringify(edit(first!)) + "\n", {
    append: true,
  });
}

/** The `n` of each line of a run's `summary.csv` (after a report). */
async function summaryN(dir: string): Promise<number[]> {
  const records = parse(
    await Deno.readTextFile(join(dir, "run", "summary.csv")),
    { columns: true },
  ) as Record<string, string>[];
  return records.map((r) => Number(r.n));
}

/** A case with the run made first; `before` then changes things. */
interface TrustCase extends Case {
  before?: (dir: string) => Promise<void>;
}

const BASE = { "c.json": config(), "q.jsonl": DATASET };

const CASES: TrustCase[] = [
  // One run identity: resume, batch import and merge compare identities.
  {
    name: "sweep --resume after the dataset was edited",
    cli: "sweep",
    args: ["--resume", "run", "--progress", "none"],
    before: (dir) =>
      Deno.writeTextFile(
        join(dir, "q.jsonl"),
        DATASET.replace("What is 82 + 33?", "What is 82 + 34?"),
      ),
    expect: [/Cannot resume run/, /q\.jsonl changed \(sha256 \w+… → \w+…/],
  },
  {
    name: "sweep --resume after a question was added to the dataset",
    cli: "sweep",
    args: ["--resume", "run", "--progress", "none"],
    before: async (dir) => {
      const seventh = Deno.readTextFileSync(
        `${ROOT}/data/arithmetic/frozen.jsonl`,
      ).split("\n")[6]!;
      await Deno.writeTextFile(join(dir, "q.jsonl"), DATASET + seventh + "\n");
    },
    expect: [/Cannot resume run/, /q\.jsonl changed/, /new run/],
  },
  {
    name: "sweep --resume with a config that changes samples",
    cli: "sweep",
    args: ["c2.json", "--resume", "run", "--progress", "none"],
    files: { "c2.json": config({ samples: 2 }) },
    expect: [/Cannot resume run/, /differs in samples/],
  },
  {
    name: "sweep --resume with a config that changes only how fast (accepted)",
    cli: "sweep",
    args: ["c2.json", "--resume", "run", "--progress", "none"],
    files: {
      "c2.json": config({ concurrency: 3, timeoutMs: 5000, retries: 1 }),
    },
    code: 0,
    mayChange: /^run\//,
    mayAdd: /^run\//,
    expect: [/6 of 6 rows stored \(0 new, 6 resumed/],
  },
  {
    name: "batch import into the run after the dataset was edited",
    cli: "batch",
    args: ["import", "run", "answers.jsonl"],
    files: { "answers.jsonl": "" },
    before: (dir) =>
      Deno.writeTextFile(
        join(dir, "q.jsonl"),
        DATASET.replace("What is 82 + 33?", "What is 82 + 34?"),
      ),
    expect: [/Cannot add rows to run/, /q\.jsonl changed/],
  },
  {
    name: "merge of two shards made from different versions of the dataset",
    cli: "merge",
    args: ["s1", "s2", "--out", "merged"],
    before: async (dir) => {
      await task(dir, "sweep", [
        "c.json",
        "--shard",
        "1/2",
        "--run-dir",
        "s1",
        "--progress",
        "none",
      ]);
      await Deno.writeTextFile(
        join(dir, "q.jsonl"),
        DATASET.replace("What is 82 + 33?", "What is 82 + 34?"),
      );
      await task(dir, "sweep", [
        "c.json",
        "--shard",
        "2/2",
        "--run-dir",
        "s2",
        "--progress",
        "none",
      ]);
    },
    expect: [/Cannot merge/, /q\.jsonl changed/],
  },
  // Rows carry the run they belong to.
  {
    name:
      "sweep --resume of results.jsonl holding another run's row (set aside, not counted)",
    cli: "sweep",
    args: ["--resume", "run", "--progress", "none"],
    before: (dir) => appendRow(dir, (r) => ({ ...r, run: "someone-else" })),
    code: 0,
    mayChange: /^run\//,
    mayAdd: /^run\/results\.bad-.*\.jsonl$/,
    expect: [
      /rows of another run: line 7/,
      /6 of 6 rows stored/,
      /results\.bad-/,
    ],
    verify: async (dir) =>
      (await rows(join(dir, "run", "results.jsonl"))).length === 6
        ? []
        : ["results.jsonl does not hold its 6 rows"],
  },
  {
    name:
      "sweep --resume of results.jsonl holding a key twice (the second set aside)",
    cli: "sweep",
    args: ["--resume", "run", "--progress", "none"],
    before: (dir) => appendRow(dir, (r) => ({ ...r, status: "wrong" })),
    code: 0,
    mayChange: /^run\//,
    mayAdd: /^run\/results\.bad-.*\.jsonl$/,
    expect: [/rows repeating a key stored on an earlier line: line 7/],
  },
  {
    name: "sweep --resume of a row whose key is not the one its fields make",
    cli: "sweep",
    args: ["--resume", "run", "--progress", "none"],
    before: (dir) => appendRow(dir, (r) => ({ ...r, key: `${r.key}-edited` })),
    code: 0,
    mayChange: /^run\//,
    mayAdd: /^run\/results\.bad-.*\.jsonl$/,
    expect: [/rows whose key is not the one their fields make: line 7/],
  },
  {
    name: "report of a run holding another run's row (counted in no result)",
    cli: "report",
    args: ["run"],
    before: (dir) => appendRow(dir, (r) => ({ ...r, run: "someone-else" })),
    code: 0,
    mayAdd: /^run\/(report\.html|summary\.csv|\.results\..*)$/,
    expect: [
      /1 row\(s\) set aside, counted in no result: rows of another run: 1 \(row 7\)/,
    ],
    verify: async (dir) => {
      const n = await summaryN(dir);
      const page = await Deno.readTextFile(join(dir, "run", "report.html"));
      return [
        ...(n.reduce((a, b) => a + b, 0) === 6 ? [] : [`summary n ${n}`]),
        ...(/rows of another run/.test(page) ? [] : ["no warning on the page"]),
      ];
    },
  },
  // The same run given twice is one run.
  {
    name: "report of the same run given twice (out/run and ./out/run/)",
    cli: "report",
    args: ["run", "./run/"],
    code: 0,
    mayAdd: /^run\/(report\.html|summary\.csv|\.results\..*)$/,
    expect: [/\.\/run\/ is the same run as run \(the same folder\)/],
    verify: async (dir) => {
      const n = await summaryN(dir);
      return n.reduce((a, b) => a + b, 0) === 6 ? [] : [`summary n ${n}`];
    },
  },
  {
    name: "report of a run and a copy of it",
    cli: "report",
    args: ["run", "copy"],
    before: async (dir) => {
      const cp = await new Deno.Command("cp", {
        args: ["-a", join(dir, "run"), join(dir, "copy")],
      }).output();
      assert.equal(cp.code, 0);
    },
    code: 0,
    mayAdd: /^run\/(report\.html|summary\.csv|\.results\..*)$/,
    expect: [/copy is the same run as run \(a copy of it/],
    verify: async (dir) => {
      const page = await Deno.readTextFile(join(dir, "run", "report.html"));
      return /same run as run/.test(page) ? [] : ["no warning on the page"];
    },
  },
  // A truncated manifest: the rows cannot be checked against the run.
  {
    name: "report of a run whose manifest.json is truncated",
    cli: "report",
    args: ["run"],
    before: async (dir) => {
      const path = join(dir, "run", "manifest.json");
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(path, text.slice(0, text.length >> 1));
    },
    expect: [/run/, /manifest\.json is not valid JSON/, /restore/],
  },
  {
    name: "report of a run whose results.jsonl is a folder",
    cli: "report",
    args: ["run"],
    before: async (dir) => {
      await Deno.remove(join(dir, "run", "results.jsonl"));
      await Deno.mkdir(join(dir, "run", "results.jsonl"));
    },
    expect: [/run/, /results\.jsonl is a folder, not a file/],
  },
  // One output guard, on real paths.
  {
    name: "report --out the run's own summary.csv",
    cli: "report",
    args: ["run", "--out", "run/summary.csv", "--force"],
    before: (dir) => Deno.writeTextFile(join(dir, "run", "summary.csv"), "x"),
    expect: [/run\/summary\.csv/, /run folder/, /report\.html/],
  },
  {
    name: "report --out a symlink to the run's manifest",
    cli: "report",
    args: ["run", "--out", "link.html", "--force"],
    before: (dir) =>
      Deno.symlink(join(dir, "run", "manifest.json"), join(dir, "link.html")),
    expect: [/link\.html/, /manifest of the run/],
  },
  {
    name: "report --out run/../run/results.jsonl",
    cli: "report",
    args: ["run", "--out", "run/../run/results.jsonl", "--force"],
    expect: [/results\.jsonl/, /rows of the run/],
  },
  {
    name: "report --out a file inside a folder below the run",
    cli: "report",
    args: ["run", "--out", "run/sub/page.html"],
    before: (dir) => Deno.mkdir(join(dir, "run", "sub")),
    expect: [/inside the run folder/],
  },
  {
    name: "batch export --out the dataset the config reads, with --force",
    cli: "batch",
    args: ["export", "c.json", "--out", "q.jsonl", "--force"],
    expect: [/q\.jsonl/, /which this command reads/],
  },
  {
    name: "batch export --out the config itself, through a symlinked folder",
    cli: "batch",
    args: ["export", "c.json", "--out", "here/c.json", "--force"],
    before: (dir) => Deno.symlink(dir, join(dir, "here")),
    expect: [/c\.json/, /which this command reads/, /resolves to/],
  },
  {
    name:
      "notebooks --out a symlink to the notebooks' own folder, with --force",
    cli: "notebooks",
    args: ["nb/a.ipynb", "--out", "L", "--force"],
    files: { "nb/a.ipynb": "{}" },
    before: (dir) => Deno.symlink(join(dir, "nb"), join(dir, "L")),
    expect: [/nb\/a\.ipynb/, /replace it/],
  },
  {
    name: "notebooks --out the notebooks' folder spelt ./nb/",
    cli: "notebooks",
    args: ["nb/a.ipynb", "--out", "./nb/"],
    files: { "nb/a.ipynb": "{}" },
    expect: [/nb\/a\.ipynb/, /replace it/],
  },
  {
    name: "sweep --run-dir inside another run's folder",
    cli: "sweep",
    args: ["c.json", "--run-dir", "run/inner", "--progress", "none"],
    expect: [/run\/inner/, /inside the run folder/, /--run-dir/],
  },
  {
    name: "sweep with an outputDir that is a run folder",
    cli: "sweep",
    args: ["c2.json", "--progress", "none"],
    files: { "c2.json": config({ outputDir: "run" }) },
    expect: [/inside the run folder/, /outputDir/],
  },
  {
    name: "merge --out a folder inside a run",
    cli: "merge",
    args: ["run", "--out", "run/merged"],
    expect: [/run\/merged/, /inside the run folder/, /--out/],
  },
  // Flags that expect a run folder refuse anything else, naming the flag.
  {
    name: "notebooks --run given the folder that holds the runs",
    cli: "notebooks",
    args: ["--run", "."],
    expect: [/--run \./, /a folder of runs \(such as .*run\)/],
  },
  {
    name: "sweep --resume given the folder that holds the runs",
    cli: "sweep",
    args: ["--resume", ".", "--progress", "none"],
    expect: [/--resume \./, /folder of runs/, /one of them/],
  },
  {
    name: "sweep --plan-from a folder that is not a run",
    cli: "sweep",
    args: ["c.json", "--plan", "--plan-from", "notes"],
    files: { "notes/a.txt": "mine\n" },
    expect: [/--plan-from notes/, /not a run folder/],
  },
  {
    name: "report of the folder that holds the runs",
    cli: "report",
    args: ["."],
    expect: [/folder of runs/, /one of them/],
  },
];

Deno.test("issue 40 run identity, membership and output guard: every case handled", async () => {
  const base = await Deno.makeTempDir({ prefix: "trust-identity-" });
  try {
    const failed: string[] = [];
    const group = 4;
    for (let i = 0; i < CASES.length; i += group) {
      const outcomes = await Promise.all(
        CASES.slice(i, i + group).map((c, j) =>
          runCase(
            base,
            { ...c, files: { ...BASE, ...c.files } },
            i + j,
            async (dir) => {
              await makeRun(dir);
              await c.before?.(dir);
            },
          )
        ),
      );
      for (const o of outcomes) {
        if (Deno.env.get("BAD_INPUT_SHOW") === "1") {
          console.log(`## ${o.name}\n${o.output}`);
        }
        if (o.problems.length > 0) {
          failed.push(
            `${o.name}: ${o.problems.join("; ")}\n  ${
              o.output.trim().replaceAll("\n", "\n  ")
            }`,
          );
        }
      }
    }
    console.log(
      `${CASES.length} identity/membership/guard cases: ${
        CASES.length - failed.length
      } handled, ${failed.length} not`,
    );
    assert.ok(CASES.length >= 25);
    assert.deepEqual(failed, []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
