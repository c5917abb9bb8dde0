/**
 * A row's `prompt`: the messages of its first request exactly as the sim
 * server received them over HTTP, and rows written before rows kept it
 * (no `prompt`) still load, resume and report.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  loadRuns,
  runSweep,
  startSimServer,
  writeReport,
} from "../../lib/mod.ts";
import { createSimBackend } from "../../lib/providers/_sim_backend.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import { getSuite } from "../../lib/suites/mod.ts";
import { e2eSuite, readRows, withTemp } from "../e2e/_setup.ts";

Deno.test("runSweep() rows carry `prompt`: the messages the sim server received, as the template renders them", () =>
  withTemp(async (dir) => {
    const { entry } = await e2eSuite(8, 5);
    const real = createSimBackend([]);
    const received: string[] = [];
    const server = await startSimServer({
      backend: {
        ...real,
        simChat: (request) => {
          received.push(JSON.stringify(request.messages));
          return real.simChat(request);
        },
        simModelList: () => real.simModelList(),
      },
    });
    try {
      const config = SweepConfigSchema.parse({
        suites: [{ ...entry, templates: ["direct", "cot"] }],
        seed: 5,
        cache: false,
        outputDir: dir,
        models: [{
          name: "avg",
          provider: "openai",
          model: "sim-average",
          baseURL: server.baseURL,
        }],
      });
      const result = await runSweep(config, { progress: "none" });
      assert.equal(result.errors, 0);
      const rows = await readRows(result.runDir);
      assert.equal(rows.length, result.total);
      assert.equal(received.length, rows.length);
      const suite = getSuite("arithmetic");
      const questions = new Map(
        (await suite.questions({
          seed: 5,
          params: entry.params,
          baseDir: ".",
        })).map((q) => [q.id, q]),
      );
      for (const row of rows) {
        const prompt = row.prompt as string;
        assert.equal(typeof prompt, "string", `${row.key}: prompt`);
        // What the server got, one request per row.
        const at = received.indexOf(prompt);
        assert.notEqual(at, -1, `${row.key}: sent as stored`);
        received.splice(at, 1);
        // What the template renders for the question.
        const question = questions.get(row.question_id as string)!;
        const template = suite.templates[row.template as string]!;
        assert.deepEqual(JSON.parse(prompt), template.render(question));
        const user = JSON.parse(prompt).find((m: { role: string }) =>
          m.role === "user"
        );
        assert.ok(user.content.includes(question.text), row.key as string);
      }
      assert.equal(received.length, 0);
      // Two templates: the prompts of one question differ by template.
      assert.ok(new Set(rows.map((r) => r.prompt)).size > questions.size);
    } finally {
      await server.close();
    }
  }));

Deno.test("rows without `prompt` (written before rows kept it) load as null, resume and report", () =>
  withTemp(async (dir) => {
    const { entry } = await e2eSuite(8, 3);
    const config = SweepConfigSchema.parse({
      suites: [entry],
      seed: 3,
      samples: 2,
      cache: false,
      outputDir: dir,
      models: [{ name: "m", provider: "sim", model: "sim-average" }],
    });
    const first = await runSweep(config, { progress: "none" });
    const path = join(first.runDir, "results.jsonl");
    // An older run: no `prompt` on any row, and only sample 0 finished.
    const old = (await readRows(first.runDir))
      .filter((r) => r.sample === 0)
      .map(({ prompt: _, ...rest }) => rest);
    assert.ok(old.length > 0 && old.every((r) => !("prompt" in r)));
    await Deno.writeTextFile(
      path,
      old.map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
    for (const name of await Array.fromAsync(Deno.readDir(first.runDir))) {
      if (name.name.startsWith(".results.")) {
        await Deno.remove(join(first.runDir, name.name));
      }
    }
    const loaded = await loadRuns(first.runDir, { warn: false });
    assert.equal(loaded.frame.height, old.length);
    assert.equal(loaded.frame.getColumn("prompt").nullCount(), old.length);

    // Resume finishes sample 1, keeping the old rows as they are.
    const resumed = await runSweep(config, {
      resume: first.runDir,
      progress: "none",
    });
    assert.equal(resumed.skipped, old.length);
    assert.equal(resumed.done, first.total - old.length);
    const rows = await readRows(first.runDir);
    assert.equal(rows.length, first.total);
    assert.equal(
      rows.filter((r) => typeof r.prompt === "string").length,
      resumed.done,
    );

    // The mixed run loads (from the JSONL, then from the copy and the
    // cache the loads leave) with null prompts on the old rows only.
    for (let pass = 0; pass < 3; pass++) {
      const mixed = await loadRuns(first.runDir, { warn: false });
      assert.equal(mixed.frame.height, first.total);
      assert.equal(mixed.frame.getColumn("prompt").nullCount(), old.length);
    }
    const html = await Deno.readTextFile(
      await writeReport(first.runDir, { out: join(dir, "report.html") }),
    );
    assert.match(html, /id="viewer"/);
    // The new rows' user messages are in the viewer's data; old rows show
    // their question.
    const user = JSON.parse(
      rows.find((r) => typeof r.prompt === "string")!.prompt as string,
    ).at(-1).content as string;
    const data = JSON.parse(
      /<script type="application\/json" id="viewer-data">(.*?)<\/script>/s
        .exec(html)![1]!,
    );
    const texts = (data.S as string[]).filter((s) =>
      s.includes(JSON.stringify(user))
    );
    assert.equal(texts.length, 1, "one copy of the prompt");
  }));
