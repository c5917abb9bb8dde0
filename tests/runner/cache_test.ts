import assert from "node:assert/strict";
import { cacheKey, ResponseCache } from "../../lib/runner/mod.ts";
import type { Completion, Prompt } from "../../lib/types.ts";

const target = {
  provider: "openai",
  baseURL: "http://127.0.0.1:1/v1",
  model: "m",
};
const prompt: Prompt = {
  templateId: "direct",
  messages: [{ role: "user", content: "2+2" }],
  params: { temperature: 0, max_tokens: 10, seed: 1 },
};
const done: Completion = {
  text: "4",
  reasoning: null,
  finishReason: "stop",
  usage: { promptTokens: 1, completionTokens: 1 },
  latencyMs: 9,
  attempts: 3,
};

Deno.test("cacheKey() changes with every part of the request and ignores key order", () => {
  const base = cacheKey(target, { prompt, sample: 0 });
  assert.match(base, /^[0-9a-f]{64}$/);
  const variants = [
    cacheKey({ ...target, baseURL: "http://127.0.0.1:2/v1" }, {
      prompt,
      sample: 0,
    }),
    cacheKey({ ...target, model: "m2" }, { prompt, sample: 0 }),
    cacheKey({ ...target, provider: "sim" }, { prompt, sample: 0 }),
    cacheKey(target, {
      prompt: {
        ...prompt,
        messages: [{ role: "user", content: "2+3" }],
      },
      sample: 0,
    }),
    cacheKey(target, {
      prompt: {
        ...prompt,
        params: { ...prompt.params, temperature: 1 },
      },
      sample: 0,
    }),
    cacheKey(target, {
      prompt: {
        ...prompt,
        params: { ...prompt.params, extra: { top_p: 0.5 } },
      },
      sample: 0,
    }),
    cacheKey(target, {
      prompt: {
        ...prompt,
        tools: [{
          type: "function",
          function: { name: "f", description: "", parameters: {} },
        }],
      },
      sample: 0,
    }),
    cacheKey(target, { prompt, sample: 1 }),
  ];
  assert.equal(new Set([base, ...variants]).size, variants.length + 1);
  const reordered: Prompt = {
    params: { seed: 1, max_tokens: 10, temperature: 0 },
    messages: [{ content: "2+2", role: "user" }],
    templateId: "other-template-id-is-not-sent",
  };
  assert.equal(cacheKey(target, { prompt: reordered, sample: 0 }), base);
});

Deno.test("ResponseCache keeps entries across reopening and never stores failures", async () => {
  const dir = await Deno.makeTempDir();
  const ok = cacheKey(target, { prompt, sample: 0 });
  const bad = cacheKey(target, { prompt, sample: 1 });
  const a = await ResponseCache.open(dir);
  a.put(ok, done);
  a.put(bad, { ...done, text: "", error: { kind: "server", message: "500" } });
  assert.equal(a.get(ok)?.text, "4", "served before commit");
  a.close();
  const b = await ResponseCache.open(dir);
  const hit = b.get(ok);
  assert.equal(hit?.text, "4");
  assert.equal(hit?.cached, true);
  assert.equal(hit?.attempts, 0);
  assert.equal(b.get(bad), undefined);
  assert.equal(b.hits, 1);
  b.close();
  await Deno.remove(dir, { recursive: true });
});

/** The key text as first specified: entries filtered, sorted, joined. */
function referenceCanonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(referenceCanonical).join(",")}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${
      entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceCanonical(v)}`)
        .join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The key as first specified: WebCrypto's SHA-256 of the reference text. */
async function referenceKey(p: Prompt, sample: number): Promise<string> {
  const text = referenceCanonical({
    provider: target.provider,
    baseURL: target.baseURL,
    model: target.model,
    messages: p.messages,
    params: p.params,
    tools: p.tools ?? null,
    sample,
  });
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

Deno.test("cacheKey() equals the SHA-256 of the sorted-key JSON, so stored caches stay valid", async () => {
  const rich: Prompt = {
    templateId: "tools",
    messages: [
      { role: "system", content: 'Ünïcode \u2028 "quoted"' },
      { role: "user", content: "2+2" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{
          id: "c1",
          type: "function",
          function: { name: "add", arguments: '{"b":2,"a":2}' },
        }],
      },
      { role: "tool", tool_call_id: "c1", content: "4" },
    ],
    params: {
      temperature: 0.7,
      max_tokens: 10,
      seed: 3,
      extra: { top_p: 0.9, Zeta: [1, null, "x"], alpha: { b: 1, a: -0 } },
    },
    tools: [{
      type: "function",
      function: { name: "add", description: "adds", parameters: {} },
    }],
  };
  for (const [p, sample] of [[prompt, 0], [rich, 7]] as const) {
    assert.equal(
      cacheKey(target, { prompt: p, sample }),
      await referenceKey(p, sample),
    );
  }
});

Deno.test("ResponseCache redacts every secret before storing, even inside JSON escapes, and on reading", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const plainKey = "sk-plain-0123456789";
    const oddKey = 'sk-"odd\\key\u00e9-0123';
    const key = cacheKey(target, { prompt, sample: 0 });
    const other = cacheKey(target, { prompt, sample: 1 });
    // An older cache (no secrets given) holds an echoed key...
    const old = await ResponseCache.open(dir);
    old.put(other, { ...done, text: `echo ${plainKey}` });
    old.close();
    const cache = await ResponseCache.open(dir, {
      secrets: [plainKey, oddKey, "abc"],
    });
    // ...which a hit does not bring back.
    assert.equal(cache.get(other)?.text, "echo [redacted]");
    cache.put(key, {
      ...done,
      text: `Bearer ${oddKey} and ${plainKey}; abc stays`,
      reasoning: `saw ${oddKey}`,
    });
    assert.deepEqual(
      [cache.get(key)?.text, cache.get(key)?.reasoning],
      ["Bearer [redacted] and [redacted]; abc stays", "saw [redacted]"],
    );
    cache.close();
    const reopened = await ResponseCache.open(dir);
    assert.equal(
      reopened.get(key)?.text,
      "Bearer [redacted] and [redacted]; abc stays",
      "stored redacted, not only read back redacted",
    );
    reopened.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cacheKey() hashes long and non-ASCII prompts exactly like WebCrypto (text beyond one 64 KiB encoding buffer)", async () => {
  const contents = [
    "",
    "a".repeat(65_535) + "😀", // a surrogate pair straddling the buffer end
    "数".repeat(70_000), // 3 UTF-8 bytes each: several buffers
    "x\ud800y\udfffz", // lone surrogates
    "é😀".repeat(40_000) + "tail",
  ];
  for (const [i, content] of contents.entries()) {
    const p: Prompt = { ...prompt, messages: [{ role: "user", content }] };
    const hex = await referenceKey(p, i);
    assert.equal(
      cacheKey(target, { prompt: p, sample: i }),
      hex,
      `content ${i}`,
    );
    // The reused hasher carries nothing over to the next key.
    assert.equal(
      cacheKey(target, { prompt: p, sample: i }),
      hex,
      `content ${i}, again`,
    );
  }
});

Deno.test("a sim reply is served from the cache only while the sim and its skills' suites are the same version", async () => {
  const { runSweep } = await import("../../lib/runner/mod.ts");
  const { SweepConfigSchema } = await import("../../lib/config/schema.ts");
  const { loadSuites } = await import("../../lib/suites/registry.ts");
  const out = await Deno.makeTempDir();
  try {
    const [arithmetic] = await loadSuites(["arithmetic"]);
    const config = SweepConfigSchema.parse({
      outputDir: out,
      models: [{ name: "sim-strong", provider: "sim" }],
      suites: [{
        name: "arithmetic",
        params: { families: ["add"], digits: [2], count: 3 },
      }],
    });
    const sweep = (suite: typeof arithmetic) =>
      runSweep(config, { suites: [suite!], progress: "none" });
    assert.equal((await sweep(arithmetic)).cached, 0);
    assert.equal((await sweep(arithmetic)).cached, 3);
    // The suite (whose skill answers for the sim) changed: new replies.
    const changed = { ...arithmetic!, version: "changed" };
    assert.equal((await sweep(changed)).cached, 0);
    assert.equal((await sweep(changed)).cached, 3);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
