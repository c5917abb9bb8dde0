/**
 * Typos that would cost a whole run fail before spending, or early: a
 * misspelt sim profile is refused when the config is read (exit 2, naming
 * the field and the known profiles); an HTTP model the server does not
 * list is refused unless the model sets `allowUnlisted`; a model whose
 * first 20 requests all fail with the same client error is stopped there
 * and the sweep exits 1 naming the error; a model with nothing but error
 * rows makes the sweep exit 1 with its first error.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startSimServer } from "../../lib/mod.ts";
import { runCli } from "./_cli.ts";

const ARITH = {
  name: "arithmetic",
  params: { families: ["add"], digits: [2], count: 30 },
};

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fail-fast-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The run folders under `out`. */
async function runs(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(join(dir, "out"))) {
      if (!e.name.startsWith(".")) out.push(e.name);
    }
  } catch {
    // no outputs folder
  }
  return out;
}

Deno.test("a misspelt sim profile is refused before anything is made, naming the field and the known profiles", () =>
  withDir(async (dir) => {
    const config = join(dir, "c.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        outputDir: join(dir, "out"),
        models: [{ name: "sim-waek", provider: "sim" }],
        suites: [ARITH],
      }),
    );
    const out = await runCli("lib/cli/sweep.ts", [
      config,
      "--progress",
      "none",
    ]);
    assert.equal(out.code, 2, out.stderr);
    assert.match(
      out.stderr,
      /models\[0\]\.name: unknown sim profile "sim-waek"; known profiles: sim-strong, .*sim-weak/,
    );
    assert.deepEqual(await runs(dir), []);
  }));

Deno.test("an HTTP model the server does not list is refused, and with allowUnlisted it stops after 20 failed requests (exit 1, the error named)", () =>
  withDir(async (dir) => {
    const server = await startSimServer({});
    try {
      const model = {
        name: "typo",
        provider: "openai",
        model: "sim-strnog",
        baseURL: server.baseURL,
      };
      const write = (extra: Record<string, unknown>) =>
        Deno.writeTextFile(
          join(dir, "c.json"),
          JSON.stringify({
            outputDir: join(dir, "out"),
            cache: false,
            retries: 0,
            models: [{ ...model, ...extra }],
            suites: [ARITH],
          }),
        );
      await write({});
      const refused = await runCli("lib/cli/sweep.ts", [
        join(dir, "c.json"),
        "--progress",
        "none",
      ]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(
        refused.stderr,
        /models\[0\]\.model: "sim-strnog" is not in the model list .*"allowUnlisted": true/,
      );
      assert.deepEqual(await runs(dir), []);
      await write({ allowUnlisted: true, concurrency: 1 });
      const stopped = await runCli("lib/cli/sweep.ts", [
        join(dir, "c.json"),
        "--progress",
        "none",
      ]);
      assert.equal(stopped.code, 1, stopped.stderr);
      assert.match(
        stopped.stderr,
        /Stopped model "typo": its first 20 requests all failed with the same error, so the rest were not sent: .*sim-strnog/,
      );
      const [run] = await runs(dir);
      const rows = (await Deno.readTextFile(
        join(dir, "out", run!, "results.jsonl"),
      )).trim().split("\n");
      assert.equal(rows.length, 20);
    } finally {
      await server.close();
    }
  }));
