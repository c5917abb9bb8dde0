/**
 * `deno task forensics` is all or nothing: with a judge that cannot be
 * reached or that fails some calls, nothing is written (`results.jsonl`
 * and its side copies stay byte-identical), and the command exits 1
 * naming the URL and the rows it could not label; a relabel that succeeds
 * rebuilds the side copies; bad input exits 2 and changes nothing.
 */
import assert from "node:assert/strict";
import { parseConfig, runSweep } from "../../../lib/mod.ts";
import { main as forensics } from "../../../lib/suites/linalg/forensics_cli.ts";
import type { ResultRow } from "../../../lib/types.ts";
import { chatReply } from "../../fixtures/chat_reply.ts";
import { runCli } from "../../e2e/_cli.ts";

const CLI = "lib/suites/linalg/forensics_cli.ts";

/** An OpenAI-compatible judge: `reply(n)` answers its n-th grading request (from 0), or fails it. */
function startJudge(reply: (n: number) => Response) {
  let n = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      await req.body?.cancel();
      return reply(n++);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests: () => n,
    close: () => server.shutdown(),
  };
}

const label = (name: string) => () =>
  chatReply(`The first error.\nLABEL: ${name}`);

/** A loopback URL with nothing listening. */
function deadURL(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}/v1`;
}

const judgeFlag = (baseURL: string) =>
  JSON.stringify({ name: "judge", provider: "openai", baseURL });

async function rowsOf(runDir: string): Promise<ResultRow[]> {
  return (await Deno.readTextFile(`${runDir}/results.jsonl`)).trim().split(
    "\n",
  ).map((l) => JSON.parse(l));
}

/** Every file of the folder (side copies included) with its bytes, by name. */
async function folderState(runDir: string) {
  const files: [string, string][] = [];
  for await (const e of Deno.readDir(runDir)) {
    files.push([e.name, await Deno.readTextFile(`${runDir}/${e.name}`)]);
  }
  return files.sort((a, b) => a[0].localeCompare(b[0]));
}

/** A finished linear-algebra run with some wrong rows, relabelled once by a judge (stage 2). */
async function labelledRun(out: string): Promise<string> {
  const { runDir } = await runSweep(
    parseConfig({
      outputDir: out,
      cache: false,
      max_tokens: 2048,
      models: [{ name: "sim-weak", provider: "sim" }],
      suites: [{
        name: "linalg",
        params: {
          source: "generated",
          tasks: ["determinant"],
          sizes: [5],
          count: 6,
        },
      }],
    }, "test"),
    { progress: "none" },
  );
  const judge = startJudge(label("carry_down_error"));
  try {
    const code = await forensics(
      [runDir, "--judge", judgeFlag(judge.url)],
      () => {},
    );
    assert.equal(code, 0);
  } finally {
    await judge.close();
  }
  const wrong = (await rowsOf(runDir)).filter((r) => r.status === "wrong");
  assert.ok(wrong.length > 1, "sim-weak gets several 5x5 determinants wrong");
  for (const row of wrong) {
    assert.equal(row.error_class, "carry_down_error");
    assert.equal(row.metrics["forensic_stage"], 2);
    assert.notEqual(row.metrics["stage1_label"], "carry_down_error");
  }
  return runDir;
}

Deno.test("deno task forensics with an unreachable judge writes nothing, exits 1 naming the URL and the rows it could not label", async () => {
  const out = await Deno.makeTempDir();
  try {
    const runDir = await labelledRun(out);
    const before = await rowsOf(runDir);
    const state = await folderState(runDir);
    assert.ok(
      state.some(([name]) => name === ".results.copy.csv"),
      "the first relabel rebuilt the CSV copy",
    );
    const url = deadURL();
    const cli = await runCli(CLI, [runDir, "--judge", judgeFlag(url)]);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    assert.doesNotMatch(cli.stderr, /^ {4}at /m);
    assert.equal(cli.stderr.trim().split("\n").length, 1, cli.stderr);
    const wrong = before.filter((r) => r.status === "wrong");
    assert.match(
      cli.stderr,
      new RegExp(
        `^Cannot relabel the wrong rows of .*results\\.jsonl: the judge "judge" at ${url} failed \\(connection: .*\\) on row .*, so it could not label ${wrong.length} of the ${wrong.length} wrong row\\(s\\): .* \\(${
          wrong.length - 1
        } not asked once it was down\\); nothing was written: .* and its side copies are as they were; check that ${url} is up.*deno task forensics ${runDir} again`,
      ),
    );
    assert.ok(cli.stderr.includes(wrong[0]!.key), "names the first row");
    // Byte for byte as it was: rows, manifest, CSV copy and index.
    assert.deepEqual(await folderState(runDir), state);

    // Once the judge is back, a run relabels and clears the failure.
    const judge = startJudge(label("sign_error"));
    try {
      assert.equal(
        await forensics([runDir, "--judge", judgeFlag(judge.url)], () => {}),
        0,
      );
    } finally {
      await judge.close();
    }
    for (const [i, row] of (await rowsOf(runDir)).entries()) {
      if (row.status !== "wrong") continue;
      assert.equal(row.error_class, "sign_error");
      assert.equal(row.metrics["forensic_error"], undefined);
      assert.equal(
        row.metrics["stage1_label"],
        before[i]!.metrics["stage1_label"],
      );
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("deno task forensics with a judge that fails some requests keeps none of the labels it got, exit 1", async () => {
  const out = await Deno.makeTempDir();
  const judge = startJudge((n) =>
    n === 0
      ? chatReply("The first error.\nLABEL: sign_error")
      : Response.json({ error: { message: "model not loaded" } }, {
        status: 400,
      })
  );
  try {
    const runDir = await labelledRun(out);
    const before = await rowsOf(runDir);
    const state = await folderState(runDir);
    const printed: string[] = [];
    const code = await forensics(
      [runDir, "--judge", judgeFlag(judge.url)],
      (l) => printed.push(l),
    );
    assert.equal(code, 1, printed.join("\n"));
    const message = printed.join("\n");
    assert.match(
      message,
      new RegExp(
        `the judge "judge" at ${judge.url} failed \\(client: .*model not loaded`,
      ),
    );
    assert.doesNotMatch(message, /^ {4}at /m);
    const wrong = before.filter((r) => r.status === "wrong");
    // A failure that is not the endpoint being down: every row was asked.
    assert.equal(judge.requests(), wrong.length);
    assert.match(
      message,
      new RegExp(
        `could not label ${
          wrong.length - 1
        } of the ${wrong.length} wrong row\\(s\\): ${
          wrong[1]!.key.replaceAll("|", "\\|")
        }.*; nothing was written: .*, and the labels of the 1 row\\(s\\) it did grade are not kept \\(a relabel is all or nothing\\)`,
      ),
    );
    // The row the judge did label is not stored either.
    assert.deepEqual(await rowsOf(runDir), before);
    assert.deepEqual(await folderState(runDir), state);
  } finally {
    await judge.close();
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("deno task forensics refuses bad input with exit 2 and changes nothing", async () => {
  const out = await Deno.makeTempDir();
  try {
    const runDir = await labelledRun(out);
    const results = await Deno.readTextFile(`${runDir}/results.jsonl`);
    const state = await folderState(runDir);

    // A judge whose key variable is not set.
    const unset = await runCli(CLI, [
      runDir,
      "--judge",
      JSON.stringify({
        name: "judge",
        provider: "openai",
        baseURL: deadURL(),
        apiKeyEnv: "FORENSICS_TEST_UNSET_KEY",
      }),
    ]);
    assert.equal(unset.code, 2, unset.stderr);
    assert.match(
      unset.stderr,
      /FORENSICS_TEST_UNSET_KEY.*; fix the --judge model/,
    );
    assert.doesNotMatch(unset.stderr, /^ {4}at /m);
    assert.equal(await Deno.readTextFile(`${runDir}/results.jsonl`), results);
    assert.deepEqual(await folderState(runDir), state);

    // A sim profile that does not exist (every call would fail).
    const nosuch = await runCli(CLI, [runDir, "--judge", "sim-nosuch"]);
    assert.equal(nosuch.code, 2, nosuch.stderr);
    assert.match(
      nosuch.stderr,
      /^Cannot use --judge sim-nosuch: there is no sim profile "sim-nosuch" \(known: sim-strong, /,
    );
    assert.doesNotMatch(nosuch.stderr, /^ {4}at /m);
    assert.equal(await Deno.readTextFile(`${runDir}/results.jsonl`), results);
    assert.deepEqual(await folderState(runDir), state);

    // A torn last line (a sweep still writing): rewriting would drop it.
    const torn = results + '{"key":"sim-weak|linalg/x';
    await Deno.writeTextFile(`${runDir}/results.jsonl`, torn);
    const tornState = await folderState(runDir);
    const judge = startJudge(label("sign_error"));
    try {
      const tornRun = await runCli(CLI, [
        runDir,
        "--judge",
        judgeFlag(judge.url),
      ]);
      assert.equal(tornRun.code, 2, tornRun.stderr);
      assert.match(
        tornRun.stderr,
        /^Cannot run forensics on .*: line \d+ of .*results\.jsonl is a torn write.*deno task sweep --resume/,
      );
      assert.doesNotMatch(tornRun.stderr, /^ {4}at /m);
      assert.equal(judge.requests(), 0);
    } finally {
      await judge.close();
    }
    assert.equal(await Deno.readTextFile(`${runDir}/results.jsonl`), torn);
    assert.deepEqual(await folderState(runDir), tornState);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("forensics main() --help prints the usage and exits 0; a usage problem goes to printError with exit 2", async () => {
  const out: string[] = [], errors: string[] = [];
  const print = (l: string) => out.push(l);
  const printError = (l: string) => errors.push(l);
  assert.equal(await forensics(["--help"], print, printError), 0);
  assert.match(out.join("\n"), /^Usage: deno task forensics <run-dir> --judge/);
  assert.deepEqual(errors, []);
  assert.equal(
    await forensics(["a", "b", "--judge", "sim-strong"], print, printError),
    2,
  );
  assert.match(
    errors.join("\n"),
    /^Cannot run forensics: 2 run folders given \(a, b\); give one run folder at a time\nUsage: /,
  );
  assert.equal(out.length, 1);
});
