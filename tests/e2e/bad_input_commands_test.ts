/**
 * The bad inputs of issue 20, as a table over every command: resume with
 * another plan, outputs that would overwrite a run's files or the user's,
 * suite params naming what does not exist, unknown flags and names, and
 * endpoints that do not answer. Each case spawns the command with its
 * `deno.json` task's permissions in a fresh folder (holding a real run
 * made once and copied in) and requires the exit code (2 for bad input, 1
 * for an endpoint or machine failure), a message that names the flag,
 * file, field or URL, no stack trace, and that no file was created,
 * changed or removed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Case, runTable, taskArgs } from "./_table.ts";

const SIM = [{ name: "sim-strong", provider: "sim" }];
const ARITH = {
  name: "arithmetic",
  params: { families: ["add"], digits: [2], count: 3 },
};

/** A sweep config as text, outputs in `out/` of the case folder. */
function config(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    outputDir: "out",
    cache: false,
    models: SIM,
    suites: [ARITH],
    ...extra,
  });
}

/** A config whose only suite is the code suite with these params. */
const code = (params: Record<string, unknown>) =>
  config({ suites: [{ name: "code", params }] });

/** A port on loopback where nothing listens. */
function deadPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
const DEAD = `http://127.0.0.1:${deadPort()}/v1`;

const USER_FILE = "my notes: keep these\n";

const CASES: Case[] = [
  // Resume keeps the run's plan.
  {
    name: "sweep --resume with another --limit",
    cli: "sweep",
    args: ["--resume", "run", "--limit", "1"],
    expect: [/--limit 1/, /planned without --limit/, /new run/],
  },
  {
    name: "sweep --resume with a config of another seed",
    cli: "sweep",
    args: ["c2.json", "--resume", "run"],
    files: { "c2.json": config({ seed: 99 }) },
    expect: [/Cannot resume run/, /differs in seed/],
  },
  {
    name: "sweep --resume with a config of other suites",
    cli: "sweep",
    args: ["c2.json", "--resume", "run"],
    files: {
      "c2.json": config({
        suites: [{ ...ARITH, params: { ...ARITH.params, count: 5 } }],
      }),
    },
    expect: [/differs in suites/],
  },
  {
    name: "sweep --resume with a --shard the run does not have",
    cli: "sweep",
    args: ["--resume", "run", "--shard", "1/2"],
    expect: [/--shard/, /run/],
  },
  {
    name: "sweep --run-dir on a folder of the user's files",
    cli: "sweep",
    args: ["c.json", "--run-dir", "mine", "--progress", "none"],
    files: { "c.json": config(), "mine/notes.txt": USER_FILE },
    expect: [/mine/, /notes\.txt/, /a path that does not exist yet/],
  },
  {
    name: "sweep --limit -1",
    cli: "sweep",
    args: ["c.json", "--limit", "-1"],
    files: { "c.json": config() },
    expect: [/--limit/],
  },
  {
    name: "sweep: an unknown template",
    cli: "sweep",
    args: ["c.json"],
    files: {
      "c.json": config({ suites: [{ ...ARITH, templates: ["nosuch"] }] }),
    },
    expect: [/c\.json/, /nosuch/],
  },
  {
    name: "sweep: an unreachable endpoint (exit 1)",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: {
      "c.json": config({
        models: [{ name: "local", provider: "openai", baseURL: DEAD }],
      }),
    },
    expect: [new RegExp(DEAD.replaceAll(".", "\\.")), /serve|server/],
    code: 1,
  },
  {
    name: "sweep: an API key variable that is not set",
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: {
      "c.json": config({
        models: [{
          name: "remote",
          provider: "openai",
          baseURL: DEAD,
          apiKeyEnv: "CALC_BENCH_UNSET_KEY",
        }],
      }),
    },
    expect: [/CALC_BENCH_UNSET_KEY/],
  },
  // Suite params that name what does not exist.
  {
    name: "code: a HumanEval task id that does not exist",
    cli: "sweep",
    args: ["c.json"],
    files: {
      "c.json": code({
        source: "humaneval",
        languages: ["python"],
        problems: ["HumanEval/999"],
      }),
    },
    expect: [/HumanEval\/999/, /HumanEval\/0 to HumanEval\/163/],
  },
  {
    name: "code: a bank problem outside the chosen topics",
    cli: "sweep",
    args: ["c.json"],
    files: { "c.json": code({ topics: ["graphs"], problems: ["mod_pow"] }) },
    expect: [/mod_pow/, /outside the chosen topics/],
  },
  {
    name: "code: a bank problem id that does not exist",
    cli: "sweep",
    args: ["c.json"],
    files: { "c.json": code({ problems: ["no_such_problem"] }) },
    expect: [/no_such_problem/, /known ids/],
  },
  {
    name: "code: an unknown python backend",
    cli: "sweep",
    args: ["c.json"],
    files: { "c.json": code({ python: "cpython" }) },
    expect: [/c\.json/, /python/],
  },
  {
    name: "code: concurrency 0",
    cli: "sweep",
    args: ["c.json"],
    files: { "c.json": code({ concurrency: 0 }) },
    expect: [/c\.json/, /concurrency/],
  },
  {
    name: "ceval: a subject that does not exist",
    cli: "sweep",
    args: ["c.json"],
    files: {
      "c.json": config({
        suites: [{ name: "ceval", params: { subjects: ["alchemy"] } }],
      }),
    },
    expect: [/c\.json/, /alchemy/, /advanced_mathematics/],
  },
  // Outputs never overwrite a run's files or the user's.
  {
    name: "report --out the run's results.jsonl",
    cli: "report",
    args: ["run", "--out", "run/results.jsonl"],
    expect: [/results\.jsonl/, /rows of the run/],
  },
  {
    name: "report --out the run's manifest, with --force",
    cli: "report",
    args: ["run", "--out", "run/manifest.json", "--force"],
    expect: [/manifest/, /not even with --force/],
  },
  {
    name: "report --out an existing file of the user's",
    cli: "report",
    args: ["run", "--out", "notes.html"],
    files: { "notes.html": USER_FILE },
    expect: [/notes\.html/, /--force/],
  },
  {
    name: "batch export --out an existing file",
    cli: "batch",
    args: ["export", "c.json", "--out", "requests.jsonl"],
    files: { "c.json": config(), "requests.jsonl": USER_FILE },
    expect: [/requests\.jsonl/, /--force/],
  },
  {
    name: "batch export --out a run's results.jsonl, with --force",
    cli: "batch",
    args: ["export", "c.json", "--out", "run/results.jsonl", "--force"],
    files: { "c.json": config() },
    expect: [/results\.jsonl/, /rows of the run/],
  },
  {
    name: "report --out a folder",
    cli: "report",
    args: ["run", "--out", "site"],
    files: { "site/": "" },
    expect: [/site/, /folder/],
  },
  {
    name: "batch export without --out",
    cli: "batch",
    args: ["export", "c.json"],
    files: { "c.json": config() },
    expect: [/--out/],
  },
  {
    name: "batch: an unknown subcommand",
    cli: "batch",
    args: ["sumbit", "c.json"],
    files: { "c.json": config() },
    expect: [/sumbit/],
  },
  {
    name: "merge --out an existing run",
    cli: "merge",
    args: ["run", "--out", "run"],
    expect: [/run/, /exists/],
  },
  {
    name: "merge: a shard folder that does not exist",
    cli: "merge",
    args: ["gone", "--out", "merged"],
    expect: [/gone/],
  },
  // The sandbox CLI.
  {
    name: "sandbox: an unknown --python",
    cli: "sandbox",
    args: ["f.py", "--entry", "f", "--args", "[1]", "--python", "cpython"],
    files: { "f.py": "def f(x):\n    return x\n" },
    expect: [/--python/, /cpython/],
  },
  {
    name: "sandbox: --args that is not JSON",
    cli: "sandbox",
    args: ["f.py", "--entry", "f", "--args", "[1"],
    files: { "f.py": "def f(x):\n    return x\n" },
    expect: [/--args/],
  },
  {
    name: "sandbox: a program file that does not exist",
    cli: "sandbox",
    args: ["gone.py", "--entry", "f", "--args", "[1]"],
    expect: [/gone\.py/],
  },
  // Mutation testing.
  {
    name: "mutation: an unknown problem",
    cli: "mutation",
    args: ["--problem", "no_such_problem"],
    expect: [/no_such_problem/, /mod_pow/],
  },
  {
    name: "mutation: --max 0 (would score nothing)",
    cli: "mutation",
    args: ["--problem", "mod_pow", "--max", "0"],
    expect: [/--max 0/],
  },
  {
    name: "mutation: an unknown language",
    cli: "mutation",
    args: ["--language", "cobol"],
    expect: [/cobol/],
  },
  {
    name: "mutation: an unknown flag",
    cli: "mutation",
    args: ["--survivor"],
    expect: [/--survivor/],
  },
  // Forensics.
  {
    name: "forensics: an unknown sim profile as the judge",
    cli: "forensics",
    args: ["run", "--judge", "sim-nosuch"],
    expect: [/sim-nosuch/],
  },
  // Notebooks.
  {
    name: "notebooks --out the folder of the notebook itself",
    cli: "notebooks",
    args: ["nb/a.ipynb", "--out", "nb"],
    files: { "nb/a.ipynb": "{}" },
    expect: [/nb\/a\.ipynb/, /replace it/],
  },
  {
    name: "notebooks --out a run folder",
    cli: "notebooks",
    args: ["nb/a.ipynb", "--out", "run"],
    files: { "nb/a.ipynb": "{}" },
    expect: [/run folder/],
  },
  {
    name: "notebooks --out a folder of the user's pages",
    cli: "notebooks",
    args: ["nb/a.ipynb", "--out", "site"],
    files: { "nb/a.ipynb": "{}", "site/a.html": USER_FILE },
    expect: [/site/, /a\.html/, /--force/],
  },
  {
    name: "notebooks: a notebook that does not exist",
    cli: "notebooks",
    args: ["gone.ipynb"],
    expect: [/gone\.ipynb/, /no such file/],
  },
  {
    name: "notebooks --run a folder that does not exist",
    cli: "notebooks",
    args: ["--run", "gone"],
    expect: [/--run gone/],
  },
  // The sim server.
  {
    name: "serve-sim: --port out of range",
    cli: "serve-sim",
    args: ["--port", "99999"],
    expect: [/--port/, /99999/],
  },
  {
    name: "serve-sim: --api-key-env naming an unset variable",
    cli: "serve-sim",
    args: ["--api-key-env", "CALC_BENCH_UNSET_KEY"],
    expect: [/CALC_BENCH_UNSET_KEY/],
  },
  {
    name: "verify-key: a folder without CSV files",
    cli: "verify-key",
    args: ["empty"],
    files: { "empty/": "" },
    expect: [/empty/],
  },
];

/** A real finished run of `config()` (3 rows), made once, as `run/`. */
async function makeRun(base: string): Promise<string> {
  const dir = join(base, "source");
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "c.json"), config());
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
  return join(dir, "run");
}

Deno.test("every command answers bad input with its exit code and a message naming it, and changes nothing", async () => {
  const base = await Deno.makeTempDir({ prefix: "bad-commands-" });
  try {
    const run = await makeRun(base);
    const prepare = async (dir: string) => {
      const cp = await new Deno.Command("cp", {
        args: ["-a", run, join(dir, "run")],
      }).output();
      assert.equal(cp.code, 0);
    };
    const failed = await runTable(base, CASES, "bad inputs over the commands", {
      group: 4,
      prepare,
    });
    assert.ok(CASES.length >= 30);
    assert.deepEqual(failed, []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
