/**
 * Keys unique by construction (issue 40, item 2), as a table over the
 * commands: a config list whose entries form part of a row key (models,
 * templates, every suite's key lists) that repeats an entry, a suite entry
 * that repeats another, two entries whose questions overlap, and a shard
 * folder given twice to merge. Each case spawns the command with its
 * `deno.json` task's permissions in a fresh folder and requires exit 2, a
 * message naming the field path (as users write it) or the argument and
 * the value, no stack trace, and that no file was created, changed or
 * removed. Two valid variants (entries that look alike but are different
 * keys) must run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Case, runTable, taskArgs } from "./_table.ts";

const SIM = [{ name: "sim-strong", provider: "sim" }];

/** A sweep config as text: these suites, outputs in `out/` of the case folder. */
function config(
  suites: unknown[],
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    outputDir: "out",
    cache: false,
    models: SIM,
    suites,
    ...extra,
  });
}

/** One arithmetic entry with these params (small: 2 questions a level). */
const arith = (params: Record<string, unknown>, templates?: string[]) => ({
  name: "arithmetic",
  params: { count: 2, ...params },
  ...(templates === undefined ? {} : { templates }),
});
/** One generated linear-algebra entry with these params. */
const linalg = (params: Record<string, unknown>) => ({
  name: "linalg",
  params: { source: "generated", count: 1, ...params },
});
/** One code-suite entry (bank, Python, no measurements) with these params. */
const code = (params: Record<string, unknown>) => ({
  name: "code",
  params: {
    languages: ["python"],
    complexity: false,
    quality: false,
    ...params,
  },
});
/** One C-Eval entry (the bundled val split, no shots) with these params. */
const ceval = (params: Record<string, unknown>) => ({
  name: "ceval",
  params: { shots: 0, limit: 2, ...params },
});

/** A sweep case: `c.json` holds `text`, the command is `sweep c.json`. */
function sweep(
  name: string,
  text: string,
  expect: RegExp[],
  more: Partial<Case> = {},
): Case {
  return {
    name,
    cli: "sweep",
    args: ["c.json", "--progress", "none"],
    files: { "c.json": text },
    expect,
    ...more,
  };
}

const ONCE = /list (it|each entry) once/;

const CASES: Case[] = [
  sweep(
    "templates: a template listed twice",
    config([arith({ digits: [2] }, ["direct", "direct"])]),
    [/suites\[0\]\.templates\[1\]/, /"direct"/, ONCE],
  ),
  sweep(
    "models: a model name used twice",
    JSON.stringify({
      outputDir: "out",
      cache: false,
      models: [...SIM, {
        name: "sim-strong",
        provider: "sim",
        model: "sim-weak",
      }],
      suites: [arith({ digits: [2] })],
    }),
    [/models\[1\]\.name/, /"sim-strong"/, /models\[0\]/],
  ),
  sweep(
    "arithmetic families: a family listed twice",
    config([arith({ families: ["add", "sub", "add"], digits: [2] })]),
    [/suites\[0\]\.params\.families\[2\]/, /"add"/, ONCE],
  ),
  sweep(
    "arithmetic digits: a digit count listed twice",
    config([arith({ families: ["add"], digits: [2, 3, 2] })]),
    [/suites\[0\]\.params\.digits\[2\]/, /\b2\b.*listed again/, ONCE],
  ),
  sweep(
    "arithmetic mulDigits: a pair listed twice",
    config([arith({ families: ["mul"], mulDigits: [[3, 4], [3, 4]] })]),
    [/suites\[0\]\.params\.mulDigits\[1\]/, /\[3,4\]/, ONCE],
  ),
  sweep(
    "arithmetic ops: an operation count listed twice",
    config([arith({ families: ["expr"], digits: [1], ops: [2, 2] })]),
    [/suites\[0\]\.params\.ops\[1\]/, /\b2\b.*listed again/, ONCE],
  ),
  sweep(
    "arithmetic division: a mode listed twice",
    config([arith({
      families: ["div"],
      digits: [2],
      division: ["exact", "exact"],
    })]),
    [/suites\[0\]\.params\.division\[1\]/, /"exact"/, ONCE],
  ),
  sweep(
    "linalg sizes: a size listed twice",
    config([linalg({ tasks: ["determinant"], sizes: [3, 3] })]),
    [/suites\[0\]\.params\.sizes\[1\]/, /\b3\b.*listed again/, ONCE],
  ),
  sweep(
    "linalg tasks: a task listed twice",
    config([linalg({ tasks: ["determinant", "determinant"], sizes: [3] })]),
    [/suites\[0\]\.params\.tasks\[1\]/, /"determinant"/, ONCE],
  ),
  sweep(
    "linalg formats: a format listed twice",
    config([linalg({
      tasks: ["determinant"],
      sizes: [3],
      formats: ["latex", "latex"],
    })]),
    [/suites\[0\]\.params\.formats\[1\]/, /"latex"/, ONCE],
  ),
  sweep(
    "code languages: a language listed twice",
    config([code({ languages: ["python", "python"], problems: 1 })]),
    [/suites\[0\]\.params\.languages\[1\]/, /"python"/, ONCE],
  ),
  sweep(
    "code topics: a topic listed twice",
    config([code({ topics: ["two_pointers", "two_pointers"], problems: 1 })]),
    [/suites\[0\]\.params\.topics\[1\]/, /"two_pointers"/, ONCE],
  ),
  sweep(
    "code difficulties: a difficulty listed twice",
    config([code({ difficulties: ["easy", "easy"], problems: 1 })]),
    [/suites\[0\]\.params\.difficulties\[1\]/, /"easy"/, ONCE],
  ),
  sweep(
    "code problems: a problem id listed twice",
    config([code({ problems: ["balanced_brackets", "balanced_brackets"] })]),
    [/suites\[0\]\.params\.problems\[1\]/, /"balanced_brackets"/, ONCE],
  ),
  sweep(
    "ceval subjects: a subject listed twice",
    config([
      ceval({
        subjects: ["civil_servant", "high_school_geography", "civil_servant"],
      }),
    ]),
    [/suites\[0\]\.params\.subjects\[2\]/, /"civil_servant"/, ONCE],
  ),
  sweep(
    "suites: a suite entry repeated",
    config([arith({ digits: [2] }), arith({ digits: [2] })]),
    [/suites\[1\]/, /repeats suites\[0\]/],
  ),
  sweep(
    "suites: the same suite and params with other templates",
    config([
      arith({ digits: [2] }, ["direct"]),
      arith({ digits: [2] }, ["cot"]),
    ]),
    [/suites\[1\]/, /suites\[0\]/, /templates/],
  ),
  sweep(
    "suites: two arithmetic entries whose digits overlap",
    config([
      arith({ families: ["add"], digits: [2, 4] }),
      arith({ families: ["add"], digits: [4] }),
    ]),
    [/suites\[0\]/, /suites\[1\]/, /digits both list 4/, /both ask question/],
  ),
  sweep(
    "suites: two C-Eval entries whose subjects overlap",
    config([
      ceval({ subjects: ["civil_servant", "high_school_geography"] }),
      ceval({ subjects: ["high_school_geography"] }),
    ]),
    [
      /suites\[0\]/,
      /suites\[1\]/,
      /subjects both list "high_school_geography"/,
      /both ask question/,
    ],
  ),
  {
    name: "merge: a shard folder given twice",
    cli: "merge",
    args: ["shard-a", "./shard-a/", "shard-b", "--out", "merged"],
    expect: [/shard-a/, /\.\/shard-a\//, /twice/, /once/],
  },
  // Valid variants: these look alike but are different keys, and run.
  sweep(
    "arithmetic mulDigits [3,4] and [4,3] are two levels (runs)",
    config([arith({ families: ["mul"], mulDigits: [[3, 4], [4, 3]] })]),
    [/4 rows|4\/4|done/i],
    { code: 0, mayAdd: /^out(\/|$)/ },
  ),
  sweep(
    "two models with one profile under two names (runs)",
    JSON.stringify({
      outputDir: "out",
      cache: false,
      models: [
        { name: "a", provider: "sim", model: "sim-strong" },
        { name: "b", provider: "sim", model: "sim-strong" },
      ],
      suites: [arith({ families: ["add"], digits: [2] })],
    }),
    [/4 rows|4\/4|done/i],
    { code: 0, mayAdd: /^out(\/|$)/ },
  ),
];

/** The two shard runs of one small sweep, made once, as `shard-a/` and `shard-b/`. */
async function makeShards(base: string): Promise<string> {
  const dir = join(base, "source");
  await Deno.mkdir(dir);
  await Deno.writeTextFile(
    join(dir, "c.json"),
    config([arith({ families: ["add"], digits: [2] })]),
  );
  for (const [shard, name] of [["1/2", "shard-a"], ["2/2", "shard-b"]]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        ...taskArgs("sweep"),
        "c.json",
        "--shard",
        shard!,
        "--run-dir",
        name!,
        "--progress",
        "none",
      ],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  }
  return dir;
}

Deno.test("a repeated key entry is refused at parse time, naming the field path and the value, and nothing is created", async () => {
  const base = await Deno.makeTempDir({ prefix: "trust-keys-" });
  try {
    const source = await makeShards(base);
    const prepare = async (dir: string) => {
      for (const name of ["shard-a", "shard-b"]) {
        const cp = await new Deno.Command("cp", {
          args: ["-a", join(source, name), join(dir, name)],
        }).output();
        assert.equal(cp.code, 0);
      }
    };
    const failed = await runTable(base, CASES, "repeated keys", {
      group: 4,
      prepare,
    });
    assert.deepEqual(failed, []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
