/**
 * LinAlg-Bench forensics stages 2 and 3 from a sweep config (a judge and a
 * validator named in the suite's params, over real HTTP and with the sim)
 * and from `deno task forensics` on an existing run.
 */
import assert from "node:assert/strict";
import { parseConfig, runSweep } from "../../../lib/mod.ts";
import { main as forensics } from "../../../lib/suites/linalg/forensics_cli.ts";
import type { ResultRow } from "../../../lib/types.ts";
import { chatReply } from "../../fixtures/chat_reply.ts";

const KEY = "sk-judge-secret-123456";

/** An OpenAI-compatible judge: labels every grade sign_error, confirms every label. */
function startJudge() {
  const seen: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      if (url.pathname.endsWith("/models")) {
        return Response.json({ object: "list", data: [{ id: "judge" }] });
      }
      seen.push(req.headers.get("authorization") ?? "");
      const body = await req.json() as { messages: { content: string }[] };
      const prompt = body.messages.at(-1)?.content ?? "";
      const content = prompt.startsWith("A grader classified")
        ? "The sign flips in the second cofactor.\nCONFIRM"
        : "The first error is a sign.\nLABEL: sign_error";
      return chatReply(content);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    seen,
    close: () => server.shutdown(),
  };
}

async function rowsOf(runDir: string): Promise<ResultRow[]> {
  return (await Deno.readTextFile(`${runDir}/results.jsonl`)).trim().split(
    "\n",
  ).map((l) => JSON.parse(l));
}

function linalgConfig(outputDir: string, extra: Record<string, unknown>) {
  return parseConfig({
    outputDir,
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
        ...extra,
      },
    }],
  }, "test");
}

Deno.test("linalg judge and validator named in the params label every wrong row at stage 3, over HTTP, key redacted", async () => {
  const judge = startJudge();
  const out = await Deno.makeTempDir();
  try {
    const model = {
      name: "judge",
      provider: "openai",
      baseURL: judge.url,
      apiKeyEnv: "JUDGE_KEY",
    };
    const config = linalgConfig(out, { judge: model, validator: model });
    const { runDir } = await runSweep(config, {
      progress: "none",
      env: (name) => name === "JUDGE_KEY" ? KEY : undefined,
    });
    const wrong = (await rowsOf(runDir)).filter((r) => r.status === "wrong");
    assert.ok(wrong.length > 0, "sim-weak gets some 5x5 determinants wrong");
    for (const row of wrong) {
      assert.equal(row.error_class, "sign_error");
      assert.equal(row.metrics["forensic_stage"], 3);
      assert.notEqual(row.metrics["stage1_label"], undefined);
      assert.match(row.explanation ?? "", /stage3: confirmed/);
    }
    assert.equal(judge.seen.length, 2 * wrong.length);
    assert.ok(judge.seen.every((h) => h === `Bearer ${KEY}`));
    const stored = await Deno.readTextFile(`${runDir}/results.jsonl`);
    assert.ok(!stored.includes(KEY));
  } finally {
    await judge.close();
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("linalg with the sim as judge keeps the stage-1 label and records why stage 2 was unscored", async () => {
  const out = await Deno.makeTempDir();
  try {
    const config = linalgConfig(out, {
      judge: { name: "sim-strong", provider: "sim" },
    });
    const { runDir } = await runSweep(config, { progress: "none" });
    const wrong = (await rowsOf(runDir)).filter((r) => r.status === "wrong");
    assert.ok(wrong.length > 0);
    for (const row of wrong) {
      assert.equal(row.metrics["forensic_stage"], 1);
      assert.equal(row.error_class, row.metrics["stage1_label"]);
      assert.match(String(row.metrics["forensic_unscored"]), /^stage2: /);
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("deno task forensics relabels the wrong rows of an existing run in place, rows in order", async () => {
  const judge = startJudge();
  const out = await Deno.makeTempDir();
  try {
    const { runDir } = await runSweep(linalgConfig(out, {}), {
      progress: "none",
    });
    const before = await rowsOf(runDir);
    const lines: string[] = [];
    const code = await forensics(
      [
        runDir,
        "--judge",
        JSON.stringify({
          name: "judge",
          provider: "openai",
          baseURL: judge.url,
        }),
      ],
      (l) => lines.push(l),
    );
    assert.equal(code, 0, lines.join("\n"));
    const after = await rowsOf(runDir);
    assert.deepEqual(after.map((r) => r.key), before.map((r) => r.key));
    const wrongBefore = before.filter((r) => r.status === "wrong");
    for (const row of after.filter((r) => r.status === "wrong")) {
      assert.equal(row.error_class, "sign_error");
      assert.equal(row.metrics["forensic_stage"], 2);
    }
    assert.match(lines.at(-1)!, new RegExp(`^${wrongBefore.length}`));
    assert.equal(
      await forensics([runDir, "--judge", "{bad"], () => {}),
      2,
    );
  } finally {
    await judge.close();
    await Deno.remove(out, { recursive: true });
  }
});
