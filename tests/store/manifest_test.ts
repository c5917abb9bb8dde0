import assert from "node:assert/strict";
import {
  buildManifest,
  createRunDir,
  readManifest,
  runDirName,
  writeManifest,
} from "../../lib/store/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";

Deno.test("buildManifest() records versions, models and env var names", async () => {
  const config = SweepConfigSchema.parse({
    models: [{
      name: "x",
      provider: "openai",
      baseURL: "http://127.0.0.1:1/v1",
      apiKeyEnv: "X_KEY",
      model: "gpt-x",
    }],
    suites: [{ name: "arithmetic" }],
    seed: 9,
  });
  const m = await buildManifest({
    run: "r",
    config,
    questions: { arithmetic: 4 },
    total: 4,
    requestSeed: "rule",
    startedAt: new Date(0),
  });
  assert.equal(m.versions.deno, Deno.version.deno);
  assert.ok(Object.keys(m.versions.libraries).includes("openai"));
  assert.deepEqual(m.models[0], {
    name: "x",
    provider: "openai",
    model: "gpt-x",
    baseURL: "http://127.0.0.1:1/v1",
    apiKeyEnv: "X_KEY",
  });
  assert.equal(m.seeds.sweep, 9);
  assert.equal(m.startedAt, "1970-01-01T00:00:00.000Z");
  assert.ok(m.gitRevision === null || /^[0-9a-f]{40}$/.test(m.gitRevision));
});

Deno.test("writeManifest() replaces secrets and round-trips through readManifest()", async () => {
  const dir = await Deno.makeTempDir();
  await writeManifest(dir, {
    run: "a",
    note: "key=abcd1234",
    config: { models: [], suites: [] },
  } as never, {
    redact: [
      "abcd1234",
    ],
  });
  const text = await Deno.readTextFile(`${dir}/manifest.json`);
  assert.ok(!text.includes("abcd1234"));
  assert.equal((await readManifest(dir)).run, "a");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createRunDir() names folders by UTC time and never reuses one", async () => {
  const base = await Deno.makeTempDir();
  const date = new Date("2026-11-29T14:05:09Z");
  assert.equal(runDirName("s", date), "s-20261129-140509");
  const dirs = await Promise.all(
    [1, 2, 3].map(() => createRunDir(base, "s", { date })),
  );
  assert.equal(new Set(dirs).size, 3);
  await Deno.remove(base, { recursive: true });
});
