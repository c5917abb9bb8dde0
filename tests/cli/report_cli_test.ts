/**
 * `deno task report` and `deno task verify-key` in process: a good run is
 * written, and a bad folder among good ones writes nothing at all.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main as report } from "../../lib/cli/report.ts";
import { main as verifyKey } from "../../lib/suites/linalg/verify_key.ts";
import { parseConfig, runSweep } from "../../lib/mod.ts";

async function tinyRun(base: string): Promise<string> {
  const config = parseConfig({
    outputDir: base,
    cache: false,
    models: [{ name: "sim-strong", provider: "sim" }],
    suites: [{
      name: "arithmetic",
      params: { families: ["add"], digits: [2], count: 2 },
    }],
  }, "report-cli");
  return (await runSweep(config, { progress: "none" })).runDir;
}

Deno.test("report main() writes report.html and summary.csv of a run and exits 0", async () => {
  const base = await Deno.makeTempDir();
  try {
    const runDir = await tinyRun(base);
    const out: string[] = [];
    const code = await report([runDir], (l) => out.push(l), () => {});
    assert.equal(code, 0);
    assert.deepEqual(out, [
      join(runDir, "report.html"),
      join(runDir, "summary.csv"),
    ]);
    assert.match(await Deno.readTextFile(out[0]!), /<html/i);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("report main() of a run that lost a row warns at the top of report.html and counts it in summary.csv", async () => {
  const base = await Deno.makeTempDir();
  try {
    const runDir = await tinyRun(base);
    const results = join(runDir, "results.jsonl");
    const lines = (await Deno.readTextFile(results)).trimEnd().split("\n");
    assert.equal(lines.length, 2);
    await Deno.writeTextFile(results, lines[0]! + "\n");
    assert.equal(await report([runDir], () => {}, () => {}), 0);
    const html = await Deno.readTextFile(join(runDir, "report.html"));
    const warning = html.indexOf('id="run-warning"');
    assert.ok(warning > 0 && warning < html.indexOf("<section"));
    assert.match(
      html,
      /Incomplete: 1 of 2 planned rows are stored \(1 missing\)/,
    );
    const csv = (await Deno.readTextFile(join(runDir, "summary.csv")))
      .trimEnd().split("\n");
    assert.match(csv[0]!, /,planned,stored,missing,error_rows$/);
    assert.match(csv[1]!, /^sim-strong,arithmetic,direct,1,.*,2,1,1,0$/);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("report main() with a good run and an empty one exits 2 before writing anything", async () => {
  const base = await Deno.makeTempDir();
  try {
    const runDir = await tinyRun(base);
    const before = [...Deno.readDirSync(runDir)].map((e) => e.name).sort();
    const empty = join(base, "empty");
    await Deno.mkdir(empty);
    await Deno.writeTextFile(join(empty, "manifest.json"), "{}");
    await Deno.writeTextFile(join(empty, "results.jsonl"), "");
    const errors: string[] = [];
    const code = await report(
      [runDir, empty],
      () => {},
      (l) => errors.push(l),
    );
    assert.equal(code, 2);
    assert.match(
      errors.join("\n"),
      /^Cannot write a report of .*empty: the run has no rows yet .*; resume it with deno task sweep --resume/,
    );
    assert.deepEqual(
      [...Deno.readDirSync(runDir)].map((e) => e.name).sort(),
      before,
    );
    assert.deepEqual(
      [...Deno.readDirSync(empty)].map((e) => e.name).sort(),
      ["manifest.json", "results.jsonl"],
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("report main() refuses --out in a missing folder with exit 2", async () => {
  const base = await Deno.makeTempDir();
  try {
    const runDir = await tinyRun(base);
    const errors: string[] = [];
    const out = join(base, "no", "r.html");
    assert.equal(
      await report([runDir, "--out", out], () => {}, (l) => errors.push(l)),
      2,
    );
    assert.match(
      errors[0]!,
      /Cannot write the report to .*: its folder .* does not exist/,
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("verify-key main() verifies a shipped CSV (0) and refuses a header-only one (2)", async () => {
  const lines: string[] = [];
  assert.equal(
    await verifyKey(
      ["data/linalgbench/linalg_bench_3x3.csv"],
      (l) => lines.push(l),
    ),
    0,
  );
  assert.match(lines.at(-1)!, /220\/220 answers agree, 0 disagree/);
  const path = await Deno.makeTempFile({ suffix: ".csv" });
  try {
    await Deno.writeTextFile(
      path,
      "Problem_ID,Subcat,problem_latex,answer_latex\n",
    );
    const out: string[] = [];
    assert.equal(await verifyKey([path], (l) => out.push(l)), 2);
    assert.match(out[0]!, /^Cannot verify .*\.csv: it has no rows to verify/);
  } finally {
    await Deno.remove(path);
  }
});
