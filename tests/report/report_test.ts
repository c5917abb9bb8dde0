import assert from "node:assert/strict";
import { join } from "node:path";
import { writeReport } from "../../lib/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";

Deno.test("writeReport() writes a standalone page with every section and drawn charts", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const dir = await writeFakeRun(tmp, "run", fakeRows({ questions: 30 }), {
      startedAt: "2026-01-01T00:00:00Z",
      endedAt: "2026-01-01T00:01:00Z",
    });
    const path = await writeReport(dir);
    assert.equal(path, join(dir, "report.html"));
    const html = await Deno.readTextFile(path);
    for (
      const title of [
        "Overview",
        "Accuracy by digits",
        "Accuracy by family",
        "Accuracy by level",
        "Cost frontier",
        "Templates compared",
        "Models compared",
        "Questions every model got wrong",
      ]
    ) assert.ok(html.includes(`<h2>${title}`), `missing section ${title}`);
    assert.ok((html.match(/class="eval-chart"/g) ?? []).length >= 7);
    assert.doesNotMatch(html, /<script/);
    assert.doesNotMatch(html, /(src|href)="https?:/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("deno task report prints the report and CSV paths, and fails clearly on a missing run", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const dir = await writeFakeRun(tmp, "run", fakeRows({ questions: 4 }));
    const cli = join(import.meta.dirname!, "../../lib/cli/report.ts");
    const ok = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(ok.code, 0, new TextDecoder().decode(ok.stderr));
    assert.deepEqual(
      new TextDecoder().decode(ok.stdout).trim().split("\n"),
      [join(dir, "report.html"), join(dir, "summary.csv")],
    );
    assert.match(await Deno.readTextFile(join(dir, "summary.csv")), /^model,/);
    const bad = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, join(tmp, "missing")],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(bad.code, 1);
    assert.match(new TextDecoder().decode(bad.stderr), /no such run folder/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
