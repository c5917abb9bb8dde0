/**
 * Issue 40's strict, declared decoding as a table over the commands, on
 * files made by Debian's iconv: a C-Eval folder in GBK or GB18030 is
 * decoded (and its encoding recorded in the manifest), UTF-16 is read with
 * its BOM and refused without; a JSONL dataset, a config, a program or a
 * batch output that is not UTF-8 is refused naming the file, the line and
 * the byte (or GBK/GB18030 and the command that converts it); a BOM with
 * CRLF passes everywhere. A refusal leaves the folder byte-identical.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Case, runCase } from "./_table.ts";
import { ROOT } from "./_cli.ts";

const SUBJECT = "civil_servant";
const VAL = Deno.readTextFileSync(
  `${ROOT}/data/ceval/val/${SUBJECT}_val.csv`,
);
const DEV = Deno.readTextFileSync(
  `${ROOT}/data/ceval/dev/${SUBJECT}_dev.csv`,
);
const FROZEN = Deno.readTextFileSync(`${ROOT}/data/arithmetic/frozen.jsonl`)
  .split("\n").slice(0, 6).join("\n") + "\n";
const SIM = [{ name: "sim-strong", provider: "sim" }];

/** `text` in `encoding`, by iconv. */
async function iconv(text: string, encoding: string): Promise<Uint8Array> {
  const child = new Deno.Command("iconv", {
    args: ["-f", "UTF-8", "-t", encoding],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(text));
  await w.close();
  const out = await child.output();
  assert.equal(out.code, 0);
  return out.stdout;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const crlf = (text: string) => text.replace(/\r?\n/g, "\r\n");

/** A sweep config as text (outputs in out/, no cache). */
function config(suites: unknown[], extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    outputDir: "out",
    cache: false,
    models: SIM,
    suites,
    ...extra,
  });
}
const CEVAL = config([{
  name: "ceval",
  params: { root: "cv", subjects: [SUBJECT], shots: 1, limit: 3 },
}]);
const ARITH = config([{ name: "arithmetic", params: { dataset: "q.jsonl" } }]);

/** A C-Eval folder of the one subject, its CSVs made by `encode`. */
async function cevalFolder(
  dir: string,
  encode: (text: string) => Promise<Uint8Array> | Uint8Array,
): Promise<void> {
  await Deno.mkdir(join(dir, "cv", "val"), { recursive: true });
  await Deno.mkdir(join(dir, "cv", "dev"), { recursive: true });
  await Deno.writeFile(
    join(dir, "cv", "val", `${SUBJECT}_val.csv`),
    await encode(VAL),
  );
  await Deno.writeFile(
    join(dir, "cv", "dev", `${SUBJECT}_dev.csv`),
    await encode(DEV),
  );
}

/** The run's rows and manifest (the one run folder under out/). */
async function theRun(dir: string) {
  const [run] = [...Deno.readDirSync(join(dir, "out"))].filter((e) =>
    !e.name.startsWith(".")
  );
  const folder = join(dir, "out", run!.name);
  const rows = (await Deno.readTextFile(join(folder, "results.jsonl")))
    .trim().split("\n").map((l) => JSON.parse(l));
  const manifest = JSON.parse(
    await Deno.readTextFile(join(folder, "manifest.json")),
  );
  return { rows, manifest };
}

/** Checks a C-Eval run: its first question is the file's, and the encoding recorded. */
function cevalRun(
  encoding: string,
  first = VAL.split("\n")[1]!.split(',"')[1]!.slice(0, 8),
) {
  return async (dir: string): Promise<string[]> => {
    const { rows, manifest } = await theRun(dir);
    const problems: string[] = [];
    if (!rows.some((r) => String(r.question).includes(first))) {
      problems.push(`no row's question holds ${first}`);
    }
    const inputs = manifest.identity?.inputs ?? [];
    const val = inputs.find((i: { name: string }) =>
      i.name.endsWith(`${SUBJECT}_val.csv`)
    );
    if (val?.encoding !== encoding) {
      problems.push(`manifest records ${val?.encoding} for the val CSV`);
    }
    return problems;
  };
}

interface EncodingCase extends Case {
  before?: (dir: string) => Promise<void>;
}

const SWEEP = (cfg = "c.json") => [cfg, "--progress", "none"];

const CASES: EncodingCase[] = [
  {
    name: "a C-Eval folder in GBK is decoded, its encoding recorded",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": CEVAL },
    before: (dir) => cevalFolder(dir, (t) => iconv(t, "GBK")),
    code: 0,
    mayAdd: /^out\//,
    expect: [/rows stored/],
    verify: cevalRun("gb18030"),
  },
  {
    name: "a C-Eval folder in GB18030 with a character outside GBK is decoded",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": CEVAL },
    before: (dir) =>
      cevalFolder(dir, (t) => iconv(t.replace("数列", "数𠀀列"), "GB18030")),
    code: 0,
    mayAdd: /^out\//,
    expect: [/rows stored/],
    verify: cevalRun("gb18030", "数𠀀列"),
  },
  {
    name: "a C-Eval folder in UTF-16 with its BOM is read",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": CEVAL },
    before: (dir) => cevalFolder(dir, (t) => iconv(t, "UTF-16")),
    code: 0,
    mayAdd: /^out\//,
    expect: [/rows stored/],
    verify: cevalRun("utf-16le"),
  },
  {
    name: "a C-Eval CSV in UTF-16 without a BOM is refused by name",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": CEVAL },
    before: (dir) => cevalFolder(dir, (t) => iconv(t, "UTF-16LE")),
    expect: [
      /civil_servant_val\.csv/,
      /UTF-16 without a byte-order mark/,
      /iconv -f UTF-16LE -t UTF-8/,
    ],
  },
  {
    name: "a C-Eval folder with a BOM and CRLF line ends",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": CEVAL },
    before: (dir) => cevalFolder(dir, (t) => utf8("\uFEFF" + crlf(t))),
    code: 0,
    mayAdd: /^out\//,
    expect: [/rows stored/],
    verify: cevalRun("utf-8-bom"),
  },
  {
    name: "an arithmetic JSONL with an invalid byte on line 3",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": ARITH },
    before: async (dir) => {
      const lines = FROZEN.split("\n");
      const bytes = [
        ...utf8(lines.slice(0, 2).join("\n") + "\n"),
        ...utf8(lines[2]!.slice(0, 30)),
        0xff,
        ...utf8(lines[2]!.slice(30) + "\n" + lines.slice(3).join("\n")),
      ];
      await Deno.writeFile(join(dir, "q.jsonl"), new Uint8Array(bytes));
    },
    expect: [/q\.jsonl/, /line 3, byte \d+ is not UTF-8 \(0xff\)/],
  },
  {
    name: "an arithmetic JSONL saved in GBK (Chinese word problems)",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": ARITH },
    before: async (dir) =>
      Deno.writeFile(join(dir, "q.jsonl"), await iconv(FROZEN, "GBK")),
    expect: [
      /q\.jsonl/,
      /GBK\/GB18030/,
      /iconv -f GB18030 -t UTF-8 .*q\.jsonl/,
    ],
  },
  {
    name: "an arithmetic JSONL with a BOM and CRLF line ends",
    cli: "sweep",
    args: SWEEP(),
    files: { "c.json": ARITH },
    before: (dir) =>
      Deno.writeFile(join(dir, "q.jsonl"), utf8("\uFEFF" + crlf(FROZEN))),
    code: 0,
    mayAdd: /^out\//,
    expect: [/6 of 6 rows stored/],
  },
  {
    name: "a config that is not UTF-8",
    cli: "sweep",
    args: SWEEP(),
    before: async (dir) =>
      Deno.writeFile(
        join(dir, "c.json"),
        await iconv(
          ARITH.replace('"outputDir"', '"name": "模型测试", "outputDir"'),
          "GBK",
        ),
      ),
    expect: [/c\.json/, /GBK\/GB18030|not UTF-8/],
  },
  {
    name: "a config with a BOM and CRLF line ends",
    cli: "sweep",
    args: SWEEP(),
    files: { "q.jsonl": FROZEN },
    before: (dir) =>
      Deno.writeFile(
        join(dir, "c.json"),
        utf8("\uFEFF" + crlf(JSON.stringify(JSON.parse(ARITH), null, 2))),
      ),
    code: 0,
    mayAdd: /^out\//,
    expect: [/6 of 6 rows stored/],
  },
  {
    name: "a qa dataset CSV in GBK is decoded",
    cli: "sweep",
    args: SWEEP(),
    files: {
      "c.json": config([{ name: "qa", params: { dataset: "q.csv" } }]),
    },
    before: async (dir) =>
      Deno.writeFile(
        join(dir, "q.csv"),
        await iconv("question,answer,类别\n计算 12 + 30。,42,加法\n", "GBK"),
      ),
    code: 0,
    mayAdd: /^out\//,
    expect: [/1 of 1 rows stored/],
    verify: async (dir) => {
      const { rows } = await theRun(dir);
      return rows[0]?.dims?.["类别"] === "加法"
        ? []
        : ["the dim 类别 was not read"];
    },
  },
  {
    name: "a sandbox program file that is not UTF-8",
    cli: "sandbox",
    args: ["f.py", "--entry", "f", "--args", "[1]"],
    before: (dir) =>
      Deno.writeFile(
        join(dir, "f.py"),
        new Uint8Array([
          ...utf8("def f(x):\n    # caf"),
          0xe9,
          ...utf8("\n    return x\n"),
        ]),
      ),
    expect: [/f\.py/, /line 2, byte \d+ is not UTF-8/],
  },
];

Deno.test("issue 40 strict decoding: every encoding case handled", async () => {
  const base = await Deno.makeTempDir({ prefix: "trust-encoding-" });
  try {
    const failed: string[] = [];
    const group = 4;
    for (let i = 0; i < CASES.length; i += group) {
      const outcomes = await Promise.all(
        CASES.slice(i, i + group).map((c, j) =>
          runCase(base, c, i + j, async (dir) => {
            await c.before?.(dir);
          })
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
      `${CASES.length} encoding cases: ${
        CASES.length - failed.length
      } handled, ${failed.length} not`,
    );
    assert.deepEqual(failed, []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
