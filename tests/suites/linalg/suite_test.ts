import { judgeLinalg } from "../../../lib/suites/linalg/score.ts";
import { SIM_BACKEND } from "../../_score.ts";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { loadConfig } from "../../../lib/mod.ts";
import { startSimServer } from "../../../lib/mod.ts";
import { SimProvider } from "../../../lib/providers/sim.ts";
import { runSweep } from "../../../lib/mod.ts";
import { linalgSuite as suite } from "../../../lib/suites/linalg/suite.ts";
import { getSuite, listSuites } from "../../../lib/suites/mod.ts";
import type { Completion, ResultRow } from "../../../lib/types.ts";

Deno.test("linalgSuite is registered as 'linalg' with the paper, original and answer_only templates", () => {
  assert.ok(listSuites().includes("linalg"));
  assert.equal(getSuite("linalg"), suite);
  assert.deepEqual(Object.keys(suite.templates).sort(), [
    "answer_only",
    "original",
    "paper",
  ]);
  assert.deepEqual(suite.defaultTemplates, ["paper"]);
});

Deno.test("linalgSuite.validateParams() reports issues with their paths", () => {
  assert.deepEqual(suite.validateParams({}), { ok: true });
  const bad = suite.validateParams({
    sizes: [3, 1],
    formats: ["csv"],
    tasks: ["inverse"],
  });
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    const paths = bad.issues.map((i) => i.path.join("."));
    assert.ok(
      paths.includes("sizes.1") && paths.includes("formats.0") &&
        paths.includes("tasks.0"),
      paths.join(),
    );
  }
  const mixed = suite.validateParams({ source: "generated", dataset: "x.csv" });
  assert.ok(!mixed.ok && mixed.issues[0]!.path[0] === "dataset");
});

Deno.test("linalgSuite.questions() loads LinAlg-Bench with dims, exact keys and one question per format", async () => {
  const qs = await suite.questions({
    seed: 0,
    params: { formats: ["latex", "list", "table"] },
    baseDir: ".",
  });
  assert.equal(qs.length, 660 * 3);
  assert.equal(new Set(qs.map((q) => q.id)).size, qs.length);
  const q = qs.find((x) => x.id === "linalg/linalgbench/C_3x3_det_001/table")!;
  assert.deepEqual(q.dims, {
    task: "determinant",
    size: 3,
    format: "table",
    tier: "recursive",
    source: "linalgbench",
  });
  assert.deepEqual(q.answer, { kind: "rational", value: "-41" });
  const eig = qs.find((x) =>
    x.id === "linalg/linalgbench/C_3x3_eig_001/latex"
  )!;
  assert.equal(eig.answer.kind, "multiset");
  assert.deepEqual(
    (eig.answer.value as string[]).map((v) => Number(v).toFixed(4)),
    ["-10.9074", "4.5753", "6.3321"],
  );
  assert.deepEqual(
    new Set(qs.map((x) => x.dims["tier"])),
    new Set([
      "reading",
      "arithmetic",
      "sequential",
      "recursive",
      "compositional",
    ]),
  );
});

Deno.test("linalgSuite.questions() resolves dataset paths against baseDir and keeps `count` per (task, size)", async () => {
  const qs = await suite.questions({
    seed: 0,
    params: { dataset: "../linalgbench/linalg_bench_4x4.csv", count: 2 },
    baseDir: "data/configs",
  });
  assert.equal(qs.length, 9 * 2);
  assert.ok(qs.every((q) => q.dims["size"] === 4));
  await assert.rejects(
    () =>
      suite.questions({
        seed: 0,
        params: { dataset: "nowhere" },
        baseDir: "data/configs",
      }),
    /Cannot load LinAlg-Bench/,
  );
});

Deno.test("linalgSuite gives the same verdicts in process and over HTTP with the real openai client", async () => {
  const server = await startSimServer({ seed: 1 });
  try {
    const client = new OpenAI({
      baseURL: server.baseURL,
      apiKey: "test",
      maxRetries: 0,
      timeout: 30_000,
    });
    const provider = new SimProvider({
      backend: SIM_BACKEND,
      name: "sim-average",
      model: "sim-average",
    });
    const qs = await suite.questions({
      seed: 5,
      params: {
        source: "generated",
        tasks: ["determinant", "eigenvalue", "multiplication"],
        sizes: [3, 5],
        count: 2,
        formats: ["latex", "table"],
      },
      baseDir: ".",
    });
    let correct = 0;
    for (const q of qs) {
      const messages = suite.templates.paper!.render(q);
      const local = await provider.complete({
        templateId: "paper",
        messages,
        params: { temperature: 0, max_tokens: 2048, seed: 7 },
      }, { sample: 0 });
      const remote = await client.chat.completions.create({
        model: "sim-average",
        messages: messages as OpenAI.ChatCompletionMessageParam[],
        temperature: 0,
        max_tokens: 2048,
        seed: 7,
      });
      const text = remote.choices[0]!.message.content ?? "";
      const over: Completion = {
        ...local,
        text,
        finishReason: remote.choices[0]!.finish_reason,
      };
      assert.equal(text, local.text, q.id);
      const a = judgeLinalg({
        question: q,
        completion: local,
        extraction: await suite.extract(q, local),
      });
      const b = judgeLinalg({
        question: q,
        completion: over,
        extraction: await suite.extract(q, over),
      });
      assert.deepEqual(a, b, q.id);
      correct += a.score;
    }
    assert.ok(
      correct > 0 && correct < qs.length,
      `correct ${correct}/${qs.length}`,
    );
  } finally {
    await server.close();
  }
});

Deno.test("data/configs/linalg.json validates and a limited sweep writes labelled linalg rows", async () => {
  const { config, baseDir } = await loadConfig("data/configs/linalg.json");
  for (const s of config.suites) {
    assert.deepEqual(getSuite(s.name).validateParams(s.params), { ok: true });
  }
  const out = await Deno.makeTempDir();
  try {
    const small = {
      ...config,
      outputDir: out,
      models: config.models.slice(1, 3),
      suites: [{
        name: "linalg",
        params: {
          source: "generated",
          sizes: [3, 6],
          count: 3,
          tasks: ["determinant", "eigenvalue"],
        },
        templates: ["paper"],
      }],
    };
    const result = await runSweep(small, {
      progress: "none",
      baseDir,
      cache: false,
    });
    assert.equal(result.total, 2 * 2 * 2 * 3);
    const rows: ResultRow[] =
      (await Deno.readTextFile(`${result.runDir}/results.jsonl`)).trim().split(
        "\n",
      ).map((l) => JSON.parse(l));
    assert.equal(rows.length, result.total);
    assert.ok(
      rows.every((r) =>
        r.dims["task"] !== undefined && r.dims["format"] === "latex"
      ),
    );
    const wrong = rows.filter((r) => r.status !== "correct");
    assert.ok(
      wrong.length > 0 && wrong.every((r) => r.error_class !== null),
      JSON.stringify(wrong.map((r) => r.error_class)),
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
