import assert from "node:assert/strict";
import { e2eSuite, withTemp } from "./_setup.ts";
import { ctrlCGroupRuns, pgidOf, spawnTaskInGroup } from "./_ctrl_c.ts";

// The same stop ten times in a row (how often a rare race spoils it) is a
// bench: `deno task bench` (tests/bench/repeat_bench.ts).
Deno.test("deno task sweep stops cleanly when Ctrl-C reaches its whole process group", async () => {
  const outcomes = await ctrlCGroupRuns(1);
  assert.deepEqual(outcomes, ["clean"]);
});

Deno.test("deno task sweep quits at once on a second Ctrl-C pressed later", () =>
  withTemp(async (dir) => {
    // An endpoint whose model list is held until the test ends: the sweep
    // waits in its start-up probe, with the Ctrl-C handler installed.
    let probed = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      async () => {
        probed = true;
        await held;
        return Response.json({ object: "list", data: [] });
      },
    );
    try {
      const { entry } = await e2eSuite(4);
      const { port } = server.addr as Deno.NetAddr;
      await Deno.writeTextFile(
        `${dir}/c.json`,
        JSON.stringify({
          name: "twice",
          outputDir: `${dir}/out`,
          suites: [entry],
          models: [{
            name: "held",
            provider: "openai",
            model: "held",
            baseURL: `http://127.0.0.1:${port}/v1`,
          }],
        }),
      );
      const child = spawnTaskInGroup([`${dir}/c.json`, "--progress", "none"]);
      const deadline = Date.now() + 60_000;
      while (!probed || (await pgidOf(child.pid)) !== child.pid) {
        assert.ok(Date.now() < deadline, "the sweep never probed the server");
        await new Promise((r) => setTimeout(r, 10));
      }
      let exited = false;
      const output = child.output().then((out) => {
        exited = true;
        return out;
      });
      // The first press reaches the sweep twice (directly and through
      // `deno task`); that is one press: the sweep is still waiting.
      Deno.kill(-child.pid, "SIGINT");
      await new Promise((r) => setTimeout(r, 800));
      assert.equal(exited, false, "one Ctrl-C (sent to the group) quit");
      // A second press later quits at once: the probe is still unanswered.
      Deno.kill(-child.pid, "SIGINT");
      const out = await output;
      assert.equal(out.code, 130);
      const stderr = new TextDecoder().decode(out.stderr);
      assert.match(stderr, /Stopping: saving finished rows/);
      assert.doesNotMatch(stderr, /Interrupted:/, "no clean stop was awaited");
    } finally {
      release();
      await server.shutdown();
    }
  }));
