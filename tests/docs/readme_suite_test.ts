/**
 * The "Write a suite" page (docs/write-a-suite.md) works as written: its
 * suite type-checks where it says it goes, its registry lines register it,
 * its config sweeps it on the sim through `lib/cli/sweep.ts` and the report
 * reads the run, and the warning it shows is the one a sweep prints for a
 * suite the sim cannot read. Everything runs on a copy of `lib/` (see
 * `tests/fixtures/registered_copy.ts`). Its blocks are marked
 * `covered-by=tests/docs/readme_suite_test.ts` for the docs test.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { copyWithSuite, ROOT } from "../fixtures/registered_copy.ts";

/** The page this test runs. */
const PAGE = "docs/write-a-suite.md";

/** A fenced block of the page: its language and its text. */
interface Block {
  lang: string;
  text: string;
}

/** The fenced blocks of the page, in order (info strings after the language ignored). */
async function pageBlocks(): Promise<Block[]> {
  const page = await Deno.readTextFile(join(ROOT, PAGE));
  return [...page.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    text: m[2]!,
  }));
}

const BLOCKS = await pageBlocks();
const [SUITE, REGISTRY] = BLOCKS.filter((b) => b.lang === "ts");
const CONFIG = BLOCKS.find((b) => b.lang === "json");
const COMMANDS = BLOCKS.find((b) => b.lang === "sh");
const WARNING = BLOCKS.find((b) =>
  b.lang === "text" && /^Warning: /.test(b.text)
);

/** Where the suite block says it goes (its first line, a path comment). */
const SUITE_PATH = /^\/\/ (lib\/suites\/\w+\/suite\.ts)\n/.exec(
  SUITE?.text ?? "",
)?.[1];

/** A suite no sim skill reads, registered beside the README's. */
const MUTE_SUITE = `import { defineSuite } from "../define.ts";

export const muteSuite = defineSuite({
  name: "mute",
  description: "Questions no sim skill reads.",
  questions: () =>
    ["red", "green", "blue"].map((c) => ({
      id: \`mute/\${c}\`,
      suite: "mute",
      text: \`Name a colour that is not \${c}.\`,
      answer: { kind: "text" as const, value: c },
      dims: {},
    })),
  templates: { plain: "" },
  extract: () => ({ value: null, rule: "none", span: null, candidates: 0 }),
  score: () => ({ status: "parse_error", score: 0, formatValid: false }),
});
`;
const MUTE_REGISTRY = `type Mute = typeof import("./mute/suite.ts");
const LOADERS = [
  ["mute", async () => (await load<Mute>("./mute/suite.ts")).muteSuite],
];`;

function rowsOf(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** A warning line with its names and counts blanked, to compare shapes. */
function shape(line: string): string {
  return line.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "N");
}

Deno.test("docs/write-a-suite.md has a suite block of at most 40 lines that says where it goes, registry lines, a config and the warning", () => {
  assert.ok(
    SUITE && REGISTRY && CONFIG && COMMANDS && WARNING,
    "a block is missing",
  );
  assert.ok(
    SUITE_PATH,
    "the suite block starts with its path, e.g. // lib/suites/units/suite.ts",
  );
  const lines = SUITE.text.trimEnd().split("\n").length;
  assert.ok(lines <= 40, `the suite is ${lines} lines`);
  assert.match(SUITE.text, /defineSuite\(/);
  assert.match(REGISTRY.text, /^\/\/ lib\/suites\/registry\.ts\n/);
});

Deno.test("docs/write-a-suite.md: the suite type-checks, registers, sweeps on the sim and reports as the page says", async () => {
  await using copy = await copyWithSuite({
    files: {
      [SUITE_PATH!]: SUITE!.text,
      "lib/suites/mute/suite.ts": MUTE_SUITE,
    },
    registry: [REGISTRY!.text, MUTE_REGISTRY],
  });
  const checked = await copy.check([SUITE_PATH!, "lib/suites/mute/suite.ts"]);
  assert.equal(checked.code, 0, `deno check failed:\n${checked.stderr}`);

  // The page's config, as `deno task sweep units.json` runs it.
  assert.match(COMMANDS!.text, /^deno task sweep units\.json\b/m);
  assert.match(COMMANDS!.text, /^deno task report outputs\/units-<time>/m);
  const config = JSON.parse(CONFIG!.text) as {
    name: string;
    models: { name: string }[];
    suites: { name: string }[];
  };
  await Deno.writeTextFile(join(copy.root, "units.json"), CONFIG!.text);
  const swept = await copy.run("lib/cli/sweep.ts", [
    "units.json",
    "--progress",
    "none",
  ]);
  assert.equal(swept.code, 0, `the sweep failed:\n${swept.stderr}`);
  assert.doesNotMatch(swept.stderr, /has no skill/);
  const runDir = /^Run folder: (.+)$/m.exec(swept.stdout)?.[1];
  assert.ok(runDir, swept.stdout);
  const rows = rowsOf(
    await Deno.readTextFile(resolve(copy.root, runDir, "results.jsonl")),
  );
  const suite = config.suites[0]!.name;
  assert.ok(rows.length > 0 && rows.every((r) => r.suite === suite));
  for (const model of config.models) {
    const own = rows.filter((r) => r.model === model.name);
    assert.ok(own.length > 0, `no rows of ${model.name}`);
    // The sim's skill reads the prompts: answers, mostly right.
    const correct = own.filter((r) => r.status === "correct").length;
    assert.ok(correct >= own.length / 2, `${model.name}: ${correct} correct`);
  }
  assert.match(swept.stdout, new RegExp(`^${suite} +sim-strong `, "m"));
  // `deno task report outputs/units-<time>`, as the page's next line.
  const reported = await copy.run("lib/cli/report.ts", [runDir]);
  assert.equal(reported.code, 0, `the report failed:\n${reported.stderr}`);
  assert.match(reported.stdout, /report\.html/);

  // A suite without a skill, swept beside arithmetic: one warning per sim
  // model, naming the suite and the model, in the page's words.
  const mute = {
    name: "mute-sweep",
    cache: false,
    models: config.models,
    suites: [{ name: "mute" }, {
      name: "arithmetic",
      params: { families: ["add"], digits: [2], count: 2 },
    }],
  };
  await Deno.writeTextFile(join(copy.root, "mute.json"), JSON.stringify(mute));
  const warned = await copy.run("lib/cli/sweep.ts", [
    "mute.json",
    "--progress",
    "none",
  ]);
  assert.equal(warned.code, 0, warned.stderr);
  const warnings = warned.stderr.split("\n").filter((l) =>
    l.startsWith("Warning: ")
  );
  assert.equal(warnings.length, config.models.length, warned.stderr);
  for (const model of config.models) {
    assert.ok(
      warnings.some((w) =>
        w.includes(`sim model "${model.name}"`) && w.includes(`suite "mute"`)
      ),
      `no warning for ${model.name}:\n${warned.stderr}`,
    );
  }
  assert.ok(!warnings.some((w) => w.includes("arithmetic")));
  assert.equal(shape(warnings[0]!), shape(WARNING!.text.trim()));
});
