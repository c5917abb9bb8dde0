import assert from "node:assert/strict";
import { e2eSuite, readRows, withTemp } from "./_setup.ts";
import { ROOT } from "./_cli.ts";

/**
 * A hostile OpenAI-compatible endpoint: every reply (content and
 * `reasoning_content`) repeats the request's Authorization header.
 */
function startEchoServer(): { baseURL: string; close: () => Promise<void> } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const auth = request.headers.get("authorization") ?? "(none)";
      const path = new URL(request.url).pathname;
      if (path === "/v1/models") {
        return Response.json({
          object: "list",
          data: [{ id: "echo", object: "model", created: 0, owned_by: auth }],
        });
      }
      if (path === "/v1/chat/completions" && request.method === "POST") {
        const body = await request.json() as { n?: number; model?: string };
        const choices = Array.from({ length: body.n ?? 1 }, (_, index) => ({
          index,
          message: {
            role: "assistant",
            content: `You sent "${auth}". The answer is 42.`,
            reasoning_content: `The header was ${auth}; I keep it.`,
          },
          finish_reason: "stop",
        }));
        return Response.json({
          id: "chatcmpl-echo",
          object: "chat.completion",
          created: 0,
          model: body.model ?? "echo",
          choices,
          usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
          system_fingerprint: auth,
        });
      }
      return Response.json({ error: { message: `no route ${path}` } }, {
        status: 404,
      });
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () => server.shutdown(),
  };
}

/** Every file under `dir`, recursively (dot folders such as `.cache` included). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** Occurrences of `needle` in `haystack`. */
function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

Deno.test("sweep CLI keeps a key an endpoint echoes back out of every file, the cache and the console", () =>
  withTemp(async (dir) => {
    const secret = `sk-echo-${crypto.randomUUID()}-SECRET`;
    const server = startEchoServer();
    try {
      const { entry, ids } = await e2eSuite(8);
      const out = `${dir}/out`;
      await Deno.writeTextFile(
        `${dir}/c.json`,
        JSON.stringify({
          name: "echo",
          outputDir: out,
          retries: 0,
          suites: [entry],
          models: [{
            name: "echo",
            provider: "openai",
            model: "echo",
            baseURL: server.baseURL,
            apiKeyEnv: "ECHO_E2E_KEY",
          }],
        }),
      );
      // Two runs: the first stores replies in the cache, the second is
      // served from it (a hit must not bring the key back either).
      const consoles: string[] = [];
      for (const run of ["first", "second"]) {
        const child = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--config",
            `${ROOT}/deno.json`,
            `${ROOT}/lib/cli/sweep.ts`,
            `${dir}/c.json`,
            "--run-dir",
            `${out}/${run}`,
            "--progress",
            "lines",
          ],
          cwd: ROOT,
          env: { ECHO_E2E_KEY: secret },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        });
        const result = await child.output();
        const decoder = new TextDecoder();
        const console = decoder.decode(result.stdout) +
          decoder.decode(result.stderr);
        assert.equal(result.code, 0, console);
        consoles.push(console);
      }

      // The echo did happen, and was redacted: in rows and in the cache.
      const first = await readRows(`${out}/first`);
      const second = await readRows(`${out}/second`);
      assert.equal(first.length, ids.length);
      assert.equal(second.length, ids.length);
      for (const row of [...first, ...second]) {
        assert.match(String(row.response), /You sent "Bearer \[redacted\]"/);
        assert.match(String(row.reasoning), /header was Bearer \[redacted\]/);
      }
      assert.ok(second.every((row) => row.cached === true), "served cached");
      const files = await filesUnder(out);
      const database = files.find((f) => f.endsWith("responses.sqlite"));
      assert.ok(database !== undefined, `no cache among ${files.join(", ")}`);
      assert.ok(files.some((f) => f.endsWith("manifest.json")));

      // Not one occurrence of the key, in any file or on the console.
      let scanned = 0, redactedInCache = 0;
      for (const file of files) {
        const bytes = await Deno.readFile(file);
        const text = new TextDecoder("latin1").decode(bytes);
        assert.equal(count(text, secret), 0, `${file} holds the key`);
        if (file.includes("responses.sqlite")) {
          redactedInCache += count(text, "Bearer [redacted]");
        }
        scanned += bytes.length;
      }
      assert.ok(scanned > 0);
      assert.ok(redactedInCache > 0, "the cache holds the redacted replies");
      for (const console of consoles) {
        assert.equal(count(console, secret), 0, "the console shows the key");
      }
    } finally {
      await server.close();
    }
  }));
