import assert from "node:assert/strict";
import { join } from "node:path";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

async function sweepCli(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", SWEEP, ...args],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return {
    code: out.code,
    stdout: decode(out.stdout),
    stderr: decode(out.stderr),
  };
}

Deno.test("sweep CLI --plan prints the table and totals, exits 0 and creates nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const outputDir = join(dir, "outputs");
    const path = join(dir, "plan.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        name: "cli-plan",
        outputDir,
        samples: 3,
        models: [
          {
            name: "gpt-4o-mini",
            provider: "openai",
            // Nothing listens here: --plan must not probe the endpoint.
            baseURL: "http://127.0.0.1:9/v1",
            apiKeyEnv: "PLAN_TEST_UNSET_KEY",
            price: { input: 0.15, output: 0.6 },
          },
          { name: "sim-average", provider: "sim" },
        ],
        suites: [{
          name: "arithmetic",
          params: { families: ["add"], digits: [2], count: 4 },
          templates: ["direct", "cot"],
        }],
      }),
    );
    const { code, stdout, stderr } = await sweepCli([path, "--plan"]);
    assert.equal(code, 0, stderr);
    // 2 models × 4 questions × 2 templates × 3 samples.
    assert.match(stdout, /^Plan for "cli-plan": 48 requests/);
    assert.match(stdout, /model\s+suite\s+template\s+requests\s+input tok/);
    assert.match(stdout, /gpt-4o-mini\s+arithmetic\s+direct\s+12\s/);
    assert.match(stdout, /sim-average\s+arithmetic\s+cot\s+12\s/);
    assert.match(stdout, /^total\s+48\s/m);
    assert.match(stdout, /o200k_base \(gpt-4o-mini's own\)/);
    assert.match(stdout, /approximate: the sim uses its own tokenizer/);
    assert.match(stdout, /heuristic = from the template/);
    assert.match(stdout, /No price for sim-average/);
    await assert.rejects(Deno.stat(outputDir), Deno.errors.NotFound);

    const limited = await sweepCli([path, "--plan", "--limit", "1"]);
    assert.equal(limited.code, 0, limited.stderr);
    assert.match(limited.stdout, /^Plan for "cli-plan": 12 requests/);
    await assert.rejects(Deno.stat(outputDir), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep CLI --plan exits 2 on a bad config or a --plan-from that is not a run", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bad = join(dir, "bad.json");
    await Deno.writeTextFile(
      bad,
      JSON.stringify({ models: [], suites: [{ name: "arithmetic" }] }),
    );
    const badRun = await sweepCli([bad, "--plan"]);
    assert.equal(badRun.code, 2);
    assert.match(badRun.stderr, /models/);
    assert.equal(badRun.stdout, "");

    const good = join(dir, "good.json");
    await Deno.writeTextFile(
      good,
      JSON.stringify({
        outputDir: join(dir, "outputs"),
        models: [{ name: "sim-strong", provider: "sim" }],
        suites: [{ name: "arithmetic", params: { count: 1 } }],
      }),
    );
    const notRun = await sweepCli([
      good,
      "--plan-from",
      join(dir, "no-such-run"),
    ]);
    assert.equal(notRun.code, 2, notRun.stderr);
    assert.match(notRun.stderr, /^Cannot use --plan-from .*no-such-run/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep CLI --plan: --assume-accuracy, --difference and --discordant change the precision section; bad values exit 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "plan.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        name: "precision",
        outputDir: join(dir, "outputs"),
        models: [
          { name: "a", provider: "sim", model: "sim-strong" },
          { name: "b", provider: "sim", model: "sim-weak" },
        ],
        suites: [{
          name: "arithmetic",
          params: { families: ["add"], digits: [2], count: 25 },
          templates: ["direct"],
        }],
      }),
    );
    const plain = await sweepCli([path, "--plan"]);
    assert.equal(plain.code, 0, plain.stderr);
    // 25 rows at an assumed 50%: ± 18.2 points; 5 points need 1,606.
    assert.match(
      plain.stdout,
      /arithmetic\s+a\s+25\s+50\.0%\s+assumed\s+± 18\.2 points/,
    );
    assert.match(plain.stdout, /a 5-point difference needs 1,606 questions/);
    const given = await sweepCli([
      path,
      "--plan",
      "--assume-accuracy",
      "90%",
      "--difference",
      "0.1",
      "--discordant",
      "0.2",
    ]);
    assert.equal(given.code, 0, given.stderr);
    assert.match(
      given.stdout,
      /arithmetic\s+a\s+25\s+90\.0%\s+given\s+± 12\.2 points/,
    );
    assert.match(given.stdout, /a 10-point difference needs \d+ questions/);
    assert.match(
      given.stdout,
      /assuming 20\.0% of questions answered differently \(given\)/,
    );
    assert.doesNotMatch(given.stdout, /1,606/);
    for (
      const [args, pattern] of [
        [
          ["--plan", "--difference", "5"],
          /--difference 5: expected a share between 0 and 1/,
        ],
        [["--plan", "--discordant", "0"], /--discordant 0: expected a share/],
        [
          ["--assume-accuracy", "0.5"],
          /Cannot use --assume-accuracy without --plan/,
        ],
      ] as const
    ) {
      const r = await sweepCli([path, ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
