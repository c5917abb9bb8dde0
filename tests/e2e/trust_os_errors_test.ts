/**
 * Operating-system errors in words (issue 40, item 5), as a table over the
 * commands: a path that is a folder where a file should be (and the
 * reverse), a path through a file, a missing file, a symbolic-link loop, a
 * name too long for the file system, a taken port, an endpoint that went
 * away, and a sandbox limit too small to start a worker. Each case spawns
 * the command with its `deno.json` task's permissions in a fresh folder
 * and requires the exit code (2 for bad input, 1 for an endpoint), a
 * message naming the path, port, URL or flag, no raw "(os error N)", no
 * stack trace, and that no file was created, changed or removed.
 *
 * Not here: EACCES. The tests run as root, where a file with mode 000 is
 * still readable and writable, so a user cannot provoke it in this folder;
 * `tests/os_error_test.ts` checks its wording. ENOSPC, EROFS and EMFILE
 * are made synthetically there too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Case, runTable, taskArgs } from "./_table.ts";
import { startSimServer } from "../../lib/providers/mod.ts";

const ARITH = {
  name: "arithmetic",
  params: { families: ["add"], digits: [2], count: 3 },
};

/** A sweep config as text, outputs in `out/` of the case folder. */
function config(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    outputDir: "out",
    cache: false,
    models: [{ name: "sim-strong", provider: "sim" }],
    suites: [ARITH],
    ...extra,
  });
}

/** A config whose arithmetic questions come from `dataset`. */
const dataset = (path: string) =>
  config({ suites: [{ name: "arithmetic", params: { dataset: path } }] });

/** A config of one openai-compatible model at `baseURL`. */
const remote = (baseURL: string, name = "m") =>
  config({
    models: [{ name, provider: "openai", model: "sim-strong", baseURL }],
  });

/** A port on loopback where nothing listens. */
function deadPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
const DEAD = `http://127.0.0.1:${deadPort()}/v1`;
const DEAD_RE = new RegExp(DEAD.replaceAll(".", "\\."));

/** A port this test holds for the whole table. */
const TAKEN = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const TAKEN_PORT = (TAKEN.addr as Deno.NetAddr).port;

const USER_FILE = "my notes: keep these\n";
const LONG = "m".repeat(300);
const FROZEN = '{"id":"q1","a":"12","b":"30","op":"+"}\n';

/** The sim server the 300-character model name is submitted to. */
const SIM = await startSimServer({ port: 0 });

const CASES: Case[] = [
  // results.jsonl a folder (EISDIR), for every command that reads a run.
  {
    name: "report: the run's results.jsonl is a folder",
    cli: "report",
    args: ["dirrun"],
    expect: [/dirrun\/results\.jsonl/, /is a folder, not a file/],
  },
  {
    name: "sweep --resume: the run's results.jsonl is a folder",
    cli: "sweep",
    args: ["--resume", "dirrun", "--progress", "none"],
    expect: [/dirrun\/results\.jsonl/, /is a folder, not a file/],
  },
  {
    name: "merge: a shard's results.jsonl is a folder",
    cli: "merge",
    args: ["shard1", "shard2", "--out", "merged"],
    expect: [/shard1\/results\.jsonl/, /is a folder, not a file/],
  },
  {
    name: "forensics: the run's results.jsonl is a folder",
    cli: "forensics",
    args: ["dirrun", "--judge", "sim-strong"],
    expect: [/dirrun\/results\.jsonl/, /is a folder, not a file/],
  },
  // Dataset paths: a folder, through a file, missing, a loop of links.
  {
    name: "sweep: the dataset is a folder",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": dataset("data"), "data/q.jsonl": FROZEN },
    expect: [/data\b/, /folder/, /"?dataset"?/],
  },
  {
    name: "sweep: the dataset path goes through a file (ENOTDIR)",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": dataset("notes.txt/q.jsonl"), "notes.txt": USER_FILE },
    expect: [/notes\.txt\/q\.jsonl/, /notes\.txt is a file/, /dataset/],
  },
  {
    name: "sweep: the dataset does not exist",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": dataset("gone.jsonl") },
    expect: [/gone\.jsonl/, /dataset/],
  },
  {
    name: "sweep: the dataset is a loop of symbolic links (ELOOP)",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": dataset("loop-a.jsonl") },
    symlinks: {
      "loop-a.jsonl": "loop-b.jsonl",
      "loop-b.jsonl": "loop-a.jsonl",
    },
    expect: [/loop-a\.jsonl/, /loop of symbolic links/, /dataset/],
  },
  // Output folders.
  {
    name: "sweep: outputDir is a file",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": config(), "out": USER_FILE },
    expect: [/\bout\b/, /a file, not a folder/, /outputDir/],
  },
  {
    name: "sweep: outputDir goes through a file (ENOTDIR)",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: {
      "c.json": config({ outputDir: "notes.txt/out" }),
      "notes.txt": USER_FILE,
    },
    expect: [/notes\.txt/, /file/, /outputDir/],
  },
  {
    name: "sweep: the response cache folder out/.cache is a file",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": config({ cache: true }), "out/.cache": USER_FILE },
    expect: [/out\/\.cache/, /a file, not a folder/, /--no-cache|outputDir/],
  },
  {
    name: "sweep --run-dir: a name longer than the file system allows",
    cli: "sweep",
    args: ["c.json", "--run-dir", LONG, "--progress", "none"],
    files: { "c.json": config() },
    expect: [/--run-dir/, /too long/, /255/],
  },
  {
    name: "sweep --run-dir: a 250-character name (accepted: it fits)",
    cli: "sweep",
    args: ["c.json", "--run-dir", "r".repeat(250), "--progress", "none"],
    files: { "c.json": config() },
    code: 0,
    expect: [/3 of 3 rows stored/],
    mayAdd: /^r{250}(\/|$)/,
    verify: async (dir) => {
      const rows = join(dir, "r".repeat(250), "results.jsonl");
      const made = await Deno.stat(rows).then((s) => s.isFile, () => false);
      return made ? [] : ["no results.jsonl in the run folder"];
    },
  },
  {
    name: "merge --out: a 250-character name (accepted: it fits)",
    cli: "merge",
    args: ["shard2", "shard1ok", "--out", "m".repeat(250)],
    code: 0,
    expect: [/Merged 2 shards/],
    mayAdd: /^m{250}(\/|$)/,
  },
  {
    name: "report --out: a name longer than the file system allows",
    cli: "report",
    args: ["run", "--out", `${LONG}.html`],
    expect: [/--out/, /too long/],
  },
  {
    name: "notebooks --out: a path through a file (ENOTDIR)",
    cli: "notebooks",
    args: ["nb/a.ipynb", "--out", "notes.txt/site"],
    files: { "nb/a.ipynb": "{}", "notes.txt": USER_FILE },
    expect: [/notes\.txt\/site/, /notes\.txt is a file/, /--out/],
  },
  {
    name: "sweep: a run name over 64 characters",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": config({ name: "n".repeat(100) }) },
    expect: [/c\.json/, /name/, /64/],
  },
  // A 300-character model name: accepted, its file names bounded.
  {
    name: "batch submit: a 300-character model name (accepted, names bounded)",
    cli: "batch",
    args: ["submit", "c.json"],
    files: { "c.json": remote(SIM.baseURL, LONG) },
    code: 0,
    expect: [/Run folder: out\//, /3 requests in 1 batch/],
    mayAdd: /^out(\/|$)/,
    verify: async (dir) => {
      const names: string[] = [];
      const walk = async (d: string) => {
        for await (const e of Deno.readDir(d)) {
          names.push(e.name);
          if (e.isDirectory) await walk(join(d, e.name));
        }
      };
      await walk(join(dir, "out")).catch(() => {});
      const long = names.filter((n) =>
        new TextEncoder().encode(n).length > 100
      );
      const request = names.find((n) => n.startsWith("001-"));
      return [
        ...(long.length > 0 ? [`names over 100 bytes: ${long}`] : []),
        ...(request === undefined ||
            !/^001-m{60,}-[0-9a-f]{8}\.jsonl$/.test(request)
          ? [`request file named ${request}`]
          : []),
      ];
    },
  },
  // Endpoints that went away: the URL named, exit 1, nothing written.
  {
    name: "batch submit: the endpoint is gone",
    cli: "batch",
    args: ["submit", "c.json"],
    files: { "c.json": remote(DEAD) },
    code: 1,
    expect: [DEAD_RE, /serve|server/, /baseURL/],
  },
  {
    name: "batch collect: the endpoint is gone",
    cli: "batch",
    args: ["collect", "brun"],
    code: 1,
    expect: [/http:\/\/127\.0\.0\.1:\d+\/v1/, /serve|server/, /baseURL/],
  },
  {
    name: "batch status: the endpoint is gone",
    cli: "batch",
    args: ["status", "brun"],
    code: 1,
    expect: [/http:\/\/127\.0\.0\.1:\d+\/v1/, /serve|server/],
  },
  // Ports.
  {
    name: "serve-sim: --port taken",
    cli: "serve-sim",
    args: ["--port", String(TAKEN_PORT)],
    expect: [new RegExp(`port ${TAKEN_PORT}`), /--port 0/],
  },
  // Sandbox limits too small to start a worker.
  {
    name: "sandbox: --memory 1 for JavaScript",
    cli: "sandbox",
    args: ["f.js", "--entry", "f", "--args", "[1]", "--memory", "1"],
    files: { "f.js": "function f(x) { return x + 1; }\n" },
    expect: [/--memory 1 is below/, /give --memory 8 or more/],
  },
  {
    name: "sandbox: --memory 1 for Pyodide",
    cli: "sandbox",
    args: [
      "f.py",
      "--entry",
      "f",
      "--args",
      "[1]",
      "--memory",
      "1",
      "--python",
      "pyodide",
    ],
    files: { "f.py": "def f(x):\n    return x + 1\n" },
    expect: [/--memory 1 is below/, /give --memory 24 or more/],
  },
  {
    name: "code suite: memoryMb below what a Pyodide worker needs",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: {
      "c.json": config({
        suites: [{
          name: "code",
          params: { languages: ["python"], python: "pyodide", memoryMb: 20 },
        }],
      }),
    },
    expect: [/c\.json/, /memoryMb/, /24/],
  },
];

/** Runs a task in `cwd`; its exit code must be 0. */
async function task(cli: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...taskArgs(cli), ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
  return text;
}

/**
 * The folders every case gets a copy of: `run` (a finished sweep),
 * `dirrun` (the same with results.jsonl a folder), `shard1` and `shard2`
 * (the two shards of it, shard 1's results.jsonl a folder; `shard1ok`
 * the same shard intact) and `brun` (a
 * batch run submitted to a sim server that has stopped since).
 */
async function makeRuns(base: string): Promise<string> {
  const dir = join(base, "source");
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "c.json"), config());
  await task(
    "sweep",
    ["c.json", "--run-dir", "run", "--progress", "none"],
    dir,
  );
  await task(
    "sweep",
    ["c.json", "--run-dir", "dirrun", "--progress", "none"],
    dir,
  );
  for (const i of [1, 2]) {
    const shard = ["--shard", `${i}/2`, "--run-dir", `shard${i}`];
    await task("sweep", ["c.json", ...shard, "--progress", "none"], dir);
  }
  await Deno.mkdir(join(dir, "shard1ok"));
  for (const name of ["manifest.json", "results.jsonl"]) {
    await Deno.copyFile(join(dir, "shard1", name), join(dir, "shard1ok", name));
  }
  for (const run of ["dirrun", "shard1"]) {
    await Deno.remove(join(dir, run, "results.jsonl"));
    await Deno.mkdir(join(dir, run, "results.jsonl"));
  }
  const server = await startSimServer({ port: 0 });
  try {
    await Deno.writeTextFile(join(dir, "b.json"), remote(server.baseURL));
    const printed = await task("batch", ["submit", "b.json"], dir);
    const runDir = /Run folder: (.+)/.exec(printed)?.[1];
    assert.ok(runDir !== undefined, printed);
    await Deno.rename(join(dir, runDir), join(dir, "brun"));
  } finally {
    await server.close();
  }
  return dir;
}

Deno.test("every OS error a user can provoke is a message in words naming the path, port or URL, and changes nothing", async () => {
  const base = await Deno.makeTempDir({ prefix: "os-errors-" });
  try {
    const source = await makeRuns(base);
    const prepare = async (dir: string) => {
      const runs = ["run", "dirrun", "brun", "shard1", "shard1ok", "shard2"];
      for (const name of runs) {
        const cp = await new Deno.Command("cp", {
          args: ["-a", join(source, name), join(dir, name)],
        }).output();
        assert.equal(cp.code, 0);
      }
    };
    const failed = await runTable(base, CASES, "OS errors over the commands", {
      group: 3,
      prepare,
    });
    assert.ok(CASES.length >= 12);
    assert.deepEqual(failed, []);
  } finally {
    TAKEN.close();
    await SIM.close();
    await Deno.remove(base, { recursive: true });
  }
});
