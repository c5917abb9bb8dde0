import assert from "node:assert/strict";
import { runSweep } from "../../lib/mod.ts";
import { startSimServer } from "../../lib/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import { e2eSuite, withTemp } from "./_setup.ts";

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
}

Deno.test("runSweep() leaves no API key anywhere under outputs/ after a keyed sweep", () =>
  withTemp(async (dir) => {
    const secret = "sk-e2e-0123456789abcdefSECRET";
    const { entry, ids } = await e2eSuite(20);
    const server = await startSimServer({ apiKey: secret });
    try {
      const config = SweepConfigSchema.parse({
        suites: [entry],
        outputDir: dir,
        retries: 0,
        models: [
          {
            name: "keyed",
            provider: "openai",
            model: "sim-strong",
            baseURL: server.baseURL,
            apiKeyEnv: "E2E_KEY",
          },
          {
            name: "wrong",
            provider: "openai",
            model: "sim-strong",
            baseURL: server.baseURL,
            apiKeyEnv: "E2E_WRONG",
          },
        ],
      });
      const env = (name: string) =>
        name === "E2E_KEY"
          ? secret
          : name === "E2E_WRONG"
          ? `${secret}-wrong`
          : undefined;
      const result = await runSweep(config, { progress: "none", env });
      assert.equal(result.done, 2 * ids.length);
      assert.equal(
        result.errors,
        ids.length,
        "the wrong key fails with auth errors",
      );
      const files = await filesUnder(dir);
      assert.ok(files.some((f) => f.endsWith("results.jsonl")));
      assert.ok(
        files.some((f) => f.endsWith(".sqlite")),
        "the cache is searched too",
      );
      for (const file of files) {
        const bytes = await Deno.readFile(file);
        const text = new TextDecoder("latin1").decode(bytes);
        assert.ok(!text.includes(secret), `${file} holds the key`);
      }
      const manifest = await Deno.readTextFile(
        `${result.runDir}/manifest.json`,
      );
      assert.ok(manifest.includes('"apiKeyEnv": "E2E_KEY"'));
    } finally {
      await server.close();
    }
  }));
