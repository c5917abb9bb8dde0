import assert from "node:assert/strict";
import { heuristicOutput, tokenCost, wallTime } from "../../lib/plan/mod.ts";

const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

Deno.test("tokenCost() prices input and output per million and takes the batch discount off", () => {
  // 1,234,000 in × $2.50/M = 3.085; 456,000 out × $10/M = 4.56.
  const cost = tokenCost({
    inputTokens: 1_234_000,
    outputTokens: 456_000,
    price: { input: 2.5, output: 10 },
  });
  assert.ok(close(cost.online, 7.645), String(cost.online));
  assert.ok(close(cost.batch, 3.8225), String(cost.batch));
  const quarter = tokenCost({
    inputTokens: 1_000_000,
    outputTokens: 0,
    price: {
      input: 1,
      output: 1,
      batchDiscount: 0.25,
    },
  });
  assert.ok(close(quarter.batch, 0.75));
  assert.deepEqual(
    tokenCost({
      inputTokens: 0,
      outputTokens: 0,
      price: { input: 5, output: 5 },
    }),
    {
      online: 0,
      batch: 0,
    },
  );
});

Deno.test("wallTime() takes the slowest of concurrency, RPM and TPM", () => {
  // 8 in flight at 4 s = 2 req/s; RPM 600 = 10/s; TPM 60,000 at 1,000
  // tokens a request = 1/s: TPM binds, 300 requests take 300 s.
  const tpm = wallTime({
    requests: 300,
    latencyMs: 4000,
    tokensPerRequest: 1000,
    concurrency: 8,
    rpm: 600,
    tpm: 60_000,
  });
  assert.equal(tpm.bound, "tpm");
  assert.ok(close(tpm.seconds, 300));
  // Unlimited RPM/TPM: 8 / 4 s = 2/s, 300 requests in 150 s.
  const conc = wallTime({
    requests: 300,
    latencyMs: 4000,
    tokensPerRequest: 1000,
    concurrency: 8,
    rpm: 0,
    tpm: 0,
  });
  assert.equal(conc.bound, "concurrency");
  assert.ok(close(conc.seconds, 150));
  assert.ok(close(conc.requestsPerSecond, 2));
  assert.equal(
    wallTime({
      requests: 0,
      latencyMs: 4000,
      tokensPerRequest: 1000,
      concurrency: 8,
      rpm: 0,
      tpm: 0,
    }).seconds,
    0,
  );
});

Deno.test("heuristicOutput() prefers the suite's figure, then reads the template", () => {
  const template = (description: string) => ({ id: "t", description });
  const generic = {};
  assert.deepEqual(
    heuristicOutput(generic, {
      templateId: "direct",
      template: template("Output only the number."),
      maxTokens: 1024,
    }),
    { perRequest: 16, source: "heuristic", note: "answer only: 16 tokens" },
  );
  assert.equal(
    heuristicOutput(generic, {
      templateId: "cot",
      template: template("Step by step."),
      maxTokens: 1024,
    })
      .perRequest,
    342,
  );
  assert.equal(
    heuristicOutput(generic, {
      templateId: "free",
      template: template("The question."),
      maxTokens: 1000,
    })
      .perRequest,
    250,
  );
  const suite = {
    outputTokens: (id: string) => id === "direct" ? 40 : undefined,
  };
  const own = heuristicOutput(suite, {
    templateId: "direct",
    template: template("Output only the number."),
    maxTokens: 1024,
  });
  assert.equal(own.perRequest, 40);
  assert.equal(own.source, "suite");
  // Never more than max_tokens.
  assert.equal(
    heuristicOutput(suite, {
      templateId: "direct",
      template: template("x"),
      maxTokens: 10,
    }).perRequest,
    10,
  );
  // The suite may decline: the generic rule decides.
  assert.equal(
    heuristicOutput(suite, {
      templateId: "cot",
      template: template("Step by step."),
      maxTokens: 99,
    }).source,
    "heuristic",
  );
});
