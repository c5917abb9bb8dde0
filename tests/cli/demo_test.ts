import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../e2e/_cli.ts";

const DEMO = new URL("../../lib/cli/demo.ts", import.meta.url).pathname;

Deno.test("demo CLI runs the shipped config end to end, prints per-suite accuracy and writes the report and CSV", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", DEMO, "--output-dir", dir],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    for (const suite of ["arithmetic", "linalg", "ceval"]) {
      assert.match(
        stdout,
        new RegExp(
          `^${suite}\\s+sim-strong\\s+\\d+\\s+\\d+\\.\\d%\\s+\\[`,
          "m",
        ),
      );
    }
    // The model reached over loopback HTTP answers exactly as in process.
    const line = (model: string, suite: string) =>
      stdout.split("\n").find((l) =>
        l.startsWith(suite) && l.split(/\s+/)[1] === model
      )
        ?.split(/\s+/).slice(2).join(" ");
    for (const suite of ["arithmetic", "linalg", "ceval"]) {
      assert.ok(line("sim-average", suite));
      assert.equal(line("sim-average-http", suite), line("sim-average", suite));
    }
    const runs = [...Deno.readDirSync(dir)].filter((e) =>
      e.name.startsWith("demo-")
    );
    assert.equal(runs.length, 1);
    const run = join(dir, runs[0]!.name);
    const html = await Deno.readTextFile(join(run, "report.html"));
    assert.match(html, /<svg/);
    const csv = await Deno.readTextFile(join(run, "summary.csv"));
    assert.match(csv, /^model,suite,template,n,/);
    assert.ok(stdout.includes(join(run, "report.html")));
    const rows = (await Deno.readTextFile(join(run, "results.jsonl"))).trim()
      .split("\n");
    const keys = new Set(rows.map((r) => JSON.parse(r).key));
    assert.equal(keys.size, rows.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("demo CLI refuses a second config file instead of ignoring it", async () => {
  const out = await runCli("lib/cli/demo.ts", ["a.json", "b.json"], {
    env: { NO_COLOR: "1" },
  });
  assert.equal(out.code, 2, out.stderr);
  assert.match(
    out.stderr,
    /give at most one config file \(got 2: a\.json, b\.json\)/,
  );
  assert.match(out.stderr, /Usage: deno task demo/);
});
