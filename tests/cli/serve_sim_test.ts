import assert from "node:assert/strict";
import { parseServeSimArgs } from "../../lib/cli/serve_sim.ts";

const script = new URL("../../lib/cli/serve_sim.ts", import.meta.url).pathname;
const permissions = ["--allow-net", "--allow-env", "--allow-read"]; // as in the deno.json task

Deno.test("serve_sim CLI prints the base URL and the profiles, serves, and stops on SIGTERM", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, script, "--port", "0", "--rate-503", "0"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let output = "";
  while (!output.includes("sim-think")) {
    const { value, done } = await reader.read();
    if (done) break;
    output += value;
  }
  const baseURL = /Sim server: (\S+)/.exec(output)?.[1];
  assert.ok(baseURL?.startsWith("http://127.0.0.1:"), output);
  assert.match(output, /sim-strong/);
  const models = await (await fetch(`${baseURL}/models`)).json();
  assert.ok(
    models.data.some((model: { id: string }) => model.id === "sim-average"),
  );
  child.kill("SIGTERM");
  while (!(await reader.read()).done) { /* drain */ }
  await child.stderr.cancel();
  const status = await child.status;
  assert.equal(status.code, 0);
});

Deno.test("serve_sim CLI exits 2 with the usage on a bad flag", async () => {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, script, "--rate-hang", "1.5"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(result.code, 2);
  const stderr = new TextDecoder().decode(result.stderr);
  assert.match(stderr, /--rate-hang must be a rate between 0 and 1/);
  assert.match(stderr, /Usage: deno task serve-sim/);
});

Deno.test("parseServeSimArgs() reads every flag and the key from the named variable", () => {
  const { options, apiKeyEnv } = parseServeSimArgs(
    [
      "--port=8123",
      "--host",
      "0.0.0.0",
      "--seed",
      "9",
      "--latency",
      "5",
      "--sim-latency",
      "--rate-429",
      "0.1",
      "--retry-after",
      "0.5",
      "--rate-500",
      "0.2",
      "--rate-503",
      "0.3",
      "--rate-hang",
      "0.01",
      "--rate-drop",
      "0.02",
      "--rate-malformed",
      "0.03",
      "--api-key-env",
      "SIM_KEY",
    ],
    (name) => name === "SIM_KEY" ? "sk-local" : undefined,
  );
  assert.deepEqual(options, {
    hostname: "0.0.0.0",
    port: 8123,
    seed: 9,
    latencyMs: 5,
    useSimLatency: true,
    faults: {
      rate429: 0.1,
      retryAfterS: 0.5,
      rate500: 0.2,
      rate503: 0.3,
      rateHang: 0.01,
      rateDrop: 0.02,
      rateMalformed: 0.03,
    },
    apiKey: "sk-local",
  });
  assert.equal(apiKeyEnv, "SIM_KEY");
});

Deno.test("parseServeSimArgs() binds loopback by default and rejects bad values", () => {
  const { options } = parseServeSimArgs([], () => undefined);
  assert.equal(options.hostname, "127.0.0.1");
  assert.equal(options.port, 8000);
  assert.equal(options.faults, undefined);
  assert.throws(
    () => parseServeSimArgs(["--port", "70000"]),
    /--port must be an integer port/,
  );
  assert.throws(() => parseServeSimArgs(["--nope"]), /Unknown option '--nope'/);
  assert.throws(
    () => parseServeSimArgs(["--api-key-env", "UNSET_VAR"], () => undefined),
    /UNSET_VAR/,
  );
  assert.throws(() => parseServeSimArgs(["extra"]), /Cannot parse flags/);
});
