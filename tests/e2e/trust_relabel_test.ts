/**
 * Relabelling is all or nothing (issue 40, item 6): `deno task forensics`
 * on a real linear-algebra run (a weak sim profile, so there are wrong
 * rows) writes nothing when a judge or validator call fails — the run
 * folder, `results.jsonl` and its side copies included, stays
 * byte-identical — and says so with the endpoint's URL and the rows it
 * could not label, exit 1. A relabel that succeeds rewrites
 * `results.jsonl` and rebuilds its CSV copy and index: byte for byte what
 * the store's `ResultsWriter` writes for the new rows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Case, runTable, taskArgs } from "./_table.ts";
import {
  RESULTS_COPY_FILE,
  RESULTS_COPY_INDEX,
  ResultsWriter,
  verifiedCopy,
} from "../../lib/store/mod.ts";
import type { ResultRow } from "../../lib/types.ts";
import { loadRuns } from "../../lib/report/mod.ts";

/** A port on loopback where nothing listens. */
function deadURL(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}/v1`;
}
const DEAD = deadURL();
const DOWN = JSON.stringify({
  name: "judge",
  provider: "openai",
  baseURL: DEAD,
});
const escaped = DEAD.replace(/[.]/g, "\\.");

/** A key of a wrong row of the run, as forensics names it. */
const KEY =
  /sim-weak\|linalg\/generated\/gen_5x5_determinant_s0_\d+\/latex\|\w+\|0/;

const CASES: Case[] = [
  {
    name: "forensics --judge at a closed port (exit 1, nothing written)",
    cli: "forensics",
    args: ["run", "--judge", DOWN],
    code: 1,
    expect: [
      new RegExp(`judge "judge" at ${escaped}`),
      /could not label \d+ of the \d+ wrong row/,
      KEY,
      /nothing was written/,
      new RegExp(`check that ${escaped} is up`),
    ],
  },
  {
    name: "forensics --validator at a closed port (exit 1, nothing written)",
    cli: "forensics",
    args: ["run", "--judge", "sim-strong", "--validator", DOWN],
    code: 1,
    expect: [
      new RegExp(`validator "judge" at ${escaped}`),
      /could not label/,
      KEY,
      /nothing was written/,
    ],
  },
];

/** The config of the run: 5x5 determinants that sim-weak often gets wrong. */
const CONFIG = JSON.stringify({
  outputDir: "out",
  cache: false,
  max_tokens: 2048,
  models: [{ name: "sim-weak", provider: "sim" }],
  suites: [{
    name: "linalg",
    params: {
      source: "generated",
      tasks: ["determinant"],
      sizes: [5],
      count: 6,
    },
  }],
});

/** A real finished run of {@linkcode CONFIG}, made once, as `<base>/source/run`. */
async function makeRun(base: string): Promise<string> {
  const dir = join(base, "source");
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "c.json"), CONFIG);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      ...taskArgs("sweep"),
      "c.json",
      "--run-dir",
      "run",
      "--progress",
      "none",
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const run = join(dir, "run");
  const rows = await rowsOf(run);
  assert.ok(
    rows.filter((r) => r.status === "wrong").length > 1,
    "sim-weak gets several 5x5 determinants wrong",
  );
  assert.ok(await verifiedCopy(join(run, "results.jsonl")), "the sweep's copy");
  return run;
}

async function rowsOf(run: string): Promise<ResultRow[]> {
  return (await Deno.readTextFile(join(run, "results.jsonl"))).trim()
    .split("\n").map((l) => JSON.parse(l));
}

/** The copy (CSV and index) a fresh ResultsWriter keeps for these rows. */
async function freshCopy(rows: readonly ResultRow[]): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    const writer = await ResultsWriter.open(join(dir, "results.jsonl"));
    for (const row of rows) await writer.append(row);
    await writer.close();
    return await Deno.readTextFile(join(dir, RESULTS_COPY_FILE));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("forensics whose judge or validator is down writes nothing and names the URL and the rows it could not label", async () => {
  const base = await Deno.makeTempDir({ prefix: "trust-relabel-" });
  try {
    const run = await makeRun(base);
    const prepare = async (dir: string) => {
      const cp = await new Deno.Command("cp", {
        args: ["-a", run, join(dir, "run")],
      }).output();
      assert.equal(cp.code, 0);
    };
    const failed = await runTable(base, CASES, "relabels with a judge down", {
      group: 2,
      prepare,
    });
    assert.deepEqual(failed, []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("forensics --judge sim-strong rewrites results.jsonl and rebuilds its CSV copy and index to match", async () => {
  const base = await Deno.makeTempDir({ prefix: "trust-relabel-ok-" });
  try {
    const run = await makeRun(base);
    const before = await rowsOf(run);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...taskArgs("forensics"), run, "--judge", "sim-strong"],
      cwd: base,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const printed = new TextDecoder().decode(out.stdout) +
      new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, printed);
    assert.match(printed, /rewritten/);
    const after = await rowsOf(run);
    assert.equal(after.length, before.length);
    assert.notDeepEqual(after, before, "the relabel changed the wrong rows");
    // The side copies are there, describe the new file, and are what a
    // fresh writer makes of its rows.
    const path = join(run, "results.jsonl");
    const index = await verifiedCopy(path);
    assert.ok(index, `${RESULTS_COPY_INDEX} verifies against the new file`);
    assert.equal(index.rows, after.length);
    assert.equal(index.jsonlEnd, (await Deno.stat(path)).size);
    assert.equal(
      await Deno.readTextFile(join(run, RESULTS_COPY_FILE)),
      await freshCopy(after),
    );
    // The report loader reads the copy and gets the new labels.
    const loaded = await loadRuns(run, { warn: false });
    const plain = await loadRuns(run, { warn: false, cache: false });
    assert.deepEqual(
      loaded.frame.getColumn("error_class").toArray(),
      plain.frame.getColumn("error_class").toArray(),
    );
    assert.deepEqual(
      loaded.frame.getColumn("error_class").toArray(),
      after.map((r) => r.error_class),
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
