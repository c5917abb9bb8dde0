/**
 * The plan's request count against a real sweep: the requests the sim
 * server receives over HTTP equal `plan.totals.requests`, with and without
 * a model's `n`, past the 128 samples one request may hold, and on a resume.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfig, runSweep, startSimServer } from "../../lib/mod.ts";
import { planSweep, planText } from "../../lib/plan/mod.ts";
import { SUITES } from "../../lib/suites/mod.ts";

type SimServer = Awaited<ReturnType<typeof startSimServer>>;

function config(
  outputDir: string,
  server: SimServer,
  extra: {
    n?: boolean;
    samples: number;
    families?: string[];
    count: number;
    templates: string[];
  },
) {
  const { n, samples, families = ["add", "mul"], count, templates } = extra;
  return parseConfig({
    name: "plan-requests",
    outputDir,
    cache: false,
    seed: 3,
    samples,
    temperature: 0.7,
    max_tokens: 200,
    models: [{
      name: "m",
      provider: "openai",
      model: "sim-average",
      baseURL: server.baseURL,
      ...(n === undefined ? {} : { n }),
    }],
    suites: [{
      name: "arithmetic",
      params: { families, digits: [3], count },
      templates,
    }],
  }, "inline");
}

/** Runs a sweep and returns how many requests the server received. */
async function sent(
  server: SimServer,
  run: () => Promise<unknown>,
): Promise<number> {
  const before = server.stats().requests;
  await run();
  return server.stats().requests - before;
}

async function withServer(
  fn: (server: SimServer, out: string) => Promise<void>,
): Promise<void> {
  const out = await Deno.makeTempDir({ prefix: "plan_requests_" });
  const server = await startSimServer();
  try {
    await fn(server, out);
  } finally {
    await server.close();
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test("planSweep() counts the requests a sweep sends, with and without n, and pays a prompt once per request", async () => {
  await withServer(async (server, out) => {
    // 2 families × 2 questions × 2 templates = 8 (question, template) pairs.
    const shape = { samples: 3, count: 2, templates: ["direct", "cot"] };
    const plain = config(out, server, shape);
    const grouped = config(out, server, { ...shape, n: true });
    const planPlain = await planSweep(plain, {
      suites: SUITES,
      measure: false,
    });
    const planN = await planSweep(grouped, { suites: SUITES, measure: false });

    const sentPlain = await sent(
      server,
      () => runSweep(plain, { progress: "none", runDir: join(out, "plain") }),
    );
    const sentN = await sent(
      server,
      () => runSweep(grouped, { progress: "none", runDir: join(out, "n") }),
    );
    assert.equal(sentPlain, 24);
    assert.equal(planPlain.totals.requests, sentPlain);
    assert.equal(sentN, 8);
    assert.equal(planN.totals.requests, sentN);

    // Same rows; the prompt paid once per request, output per row.
    assert.equal(planN.totals.rows, 24);
    assert.equal(planPlain.totals.rows, 24);
    assert.equal(planN.totals.inputTokens * 3, planPlain.totals.inputTokens);
    assert.equal(planN.totals.outputTokens, planPlain.totals.outputTokens);
    assert.equal(planN.totals.outputTokensMax, 24 * 200);
    for (const row of planN.rows) {
      assert.equal(row.rows, row.requests * 3, row.template);
    }
    // The text shows rows beside requests only where they differ.
    const text = planText(planN);
    assert.match(text, /^Plan for "plan-requests": 8 requests for 24 rows,/);
    assert.match(text, /template\s+requests\s+rows\s+input tok/);
    assert.match(text, /m \(n: true\) ask for the samples/);
    // The main table (the precision section below counts rows by design).
    assert.doesNotMatch(
      planText(planPlain).split("\nPrecision and power")[0]!,
      /rows|n: true/,
    );
  });
});

Deno.test("planSweep() with n counts one request per 128 samples and the rest one by one, as the sweep sends them", async () => {
  await withServer(async (server, out) => {
    // One question, 130 samples: one request with n = 128, then 2 single ones.
    const grouped = config(out, server, {
      samples: 130,
      families: ["add"],
      count: 1,
      templates: ["direct"],
      n: true,
    });
    const plan = await planSweep(grouped, { suites: SUITES, measure: false });
    const requests = await sent(
      server,
      () => runSweep(grouped, { progress: "none", runDir: join(out, "n") }),
    );
    assert.equal(requests, 3);
    assert.equal(plan.totals.requests, requests);
    assert.equal(plan.totals.rows, 130);
  });
});

Deno.test("planSweep() with n and finished rows counts the requests of the resume", async () => {
  await withServer(async (server, out) => {
    const grouped = config(out, server, {
      samples: 3,
      count: 2,
      templates: ["direct"],
      n: true,
    });
    const runDir = join(out, "n");
    await runSweep(grouped, { progress: "none", runDir });
    // Take rows out so that the resume finds each kind of gap: samples
    // 1 and 2 missing (two single requests), sample 0 missing (one), 0 and
    // 2 missing (0 alone, then 2 alone: two), 0 and 1 missing (one with n: 2).
    const file = join(runDir, "results.jsonl");
    const lines = (await Deno.readTextFile(file)).split("\n").filter((l) =>
      l !== ""
    );
    const keys = lines.map((l) => (JSON.parse(l) as { key: string }).key);
    const questions = [...new Set(keys.map((k) => k.split("|")[1]!))].sort();
    assert.equal(questions.length, 4);
    const drop = new Set([
      `m|${questions[0]}|direct|1`,
      `m|${questions[0]}|direct|2`,
      `m|${questions[1]}|direct|0`,
      `m|${questions[2]}|direct|0`,
      `m|${questions[2]}|direct|2`,
      `m|${questions[3]}|direct|0`,
      `m|${questions[3]}|direct|1`,
    ]);
    assert.ok([...drop].every((k) => keys.includes(k)), keys.join("\n"));
    const kept = lines.filter((_, i) => !drop.has(keys[i]!));
    await Deno.writeTextFile(file, kept.map((l) => `${l}\n`).join(""));

    const finished = new Set(keys.filter((k) => !drop.has(k)));
    const plan = await planSweep(grouped, {
      suites: SUITES,
      measure: false,
      finished,
    });
    const requests = await sent(
      server,
      () => runSweep(grouped, { progress: "none", resume: runDir }),
    );
    assert.equal(requests, 2 + 1 + 2 + 1);
    assert.equal(plan.totals.requests, requests);
    assert.equal(plan.totals.rows, drop.size);
  });
});
