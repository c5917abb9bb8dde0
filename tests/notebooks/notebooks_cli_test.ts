import assert from "node:assert/strict";
import { join } from "node:path";
import { fakeRows, writeFakeRun } from "../report/_fixture.ts";

const root = join(import.meta.dirname!, "../..");
const cli = join(root, "lib/cli/notebooks.ts");

async function run(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    text: new TextDecoder().decode(out.stdout) +
      new TextDecoder().decode(out.stderr),
  };
}

Deno.test("deno task notebooks --run executes a notebook on a given run and writes .ipynb and .html", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "nb-cli-" });
  try {
    const runDir = await writeFakeRun(
      tmp,
      "run",
      fakeRows({ questions: 12, models: ["sim-strong", "sim-weak"] }),
    );
    const out = join(tmp, "out");
    const r = await run(
      "--run",
      runDir,
      "--out",
      out,
      "notebooks/00-overview.ipynb",
    );
    assert.equal(r.code, 0, r.text);
    const html = await Deno.readTextFile(join(out, "00-overview.html"));
    assert.ok(
      html.includes(`Analysing ${runDir}`),
      "the notebook should analyse the given run, not sweep",
    );
    assert.ok((html.match(/class="eval-chart"/g) ?? []).length >= 5);
    const nb = JSON.parse(
      await Deno.readTextFile(join(out, "00-overview.ipynb")),
    );
    assert.equal(nb.cells.length > 0, true);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("deno task notebooks fails when a cell errors or shows nothing", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "nb-cli-" });
  try {
    const path = join(tmp, "bad.ipynb");
    const cell = (source: string, tags: string[] = []) => ({
      cell_type: "code",
      id: crypto.randomUUID().slice(0, 8),
      metadata: { tags },
      source,
      outputs: [],
      execution_count: null,
    });
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        cells: [
          cell("const x = 1;"),
          cell("throw new RangeError('on purpose')"),
          cell("const y = 2;", ["no-output"]),
        ],
        metadata: {
          kernelspec: {
            name: "deno",
            display_name: "Deno",
            language: "typescript",
          },
        },
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    const r = await run("--out", join(tmp, "out"), path);
    assert.equal(r.code, 1, r.text);
    assert.match(r.text, /cell 1 shows nothing/);
    assert.match(r.text, /cell 2 failed: RangeError: on purpose/);
    assert.doesNotMatch(r.text, /cell 3/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("deno task notebooks --run passes the run only to notebooks of the run's suites", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "nb-cli-" });
  try {
    const runDir = await writeFakeRun(tmp, "run", fakeRows({ questions: 2 }), {
      config: { suites: [{ name: "arithmetic" }] },
    });
    const notebook = (suites: string[] | null) => ({
      cells: [{
        cell_type: "code",
        id: "c1",
        metadata: {},
        source: '`run: ${Deno.env.get("EVAL_RUN_DIR") ?? "none"}`',
        outputs: [],
        execution_count: null,
      }],
      metadata: {
        kernelspec: {
          name: "deno",
          display_name: "Deno",
          language: "typescript",
        },
        ...(suites ? { eval: { suites } } : {}),
      },
      nbformat: 4,
      nbformat_minor: 5,
    });
    await Deno.writeTextFile(
      join(tmp, "other.ipynb"),
      JSON.stringify(notebook(["ceval"])),
    );
    await Deno.writeTextFile(
      join(tmp, "same.ipynb"),
      JSON.stringify(notebook(["arithmetic"])),
    );
    const out = join(tmp, "out");
    const r = await run(
      "--run",
      runDir,
      "--out",
      out,
      join(tmp, "other.ipynb"),
      join(tmp, "same.ipynb"),
    );
    assert.equal(r.code, 0, r.text);
    assert.match(r.text, /other\.ipynb analyses ceval, which .* lacks/);
    assert.match(
      await Deno.readTextFile(join(out, "other.ipynb")),
      /run: none/,
    );
    assert.ok(
      (await Deno.readTextFile(join(out, "same.ipynb"))).includes(
        `run: ${runDir}`,
      ),
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
