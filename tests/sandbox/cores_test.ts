/**
 * Quiet timing on cores of its own: the timed part of a request runs on a
 * timing core, and once timing has begun the other workers run on the
 * remaining cores — seen from inside the sandbox (native Python reads its
 * own CPU affinity). On a machine with one CPU or without FFI the
 * split does not exist and timing runs alone in its pool. A timed call's
 * own limit is CPU time, so a call that waits for a shared work core is
 * not cut short.
 */
import assert from "node:assert/strict";
import { coreSplit, parseCpuList } from "../../lib/sandbox/_cores.ts";
import { createSandbox } from "../../lib/sandbox/mod.ts";
import { denoScriptOutput } from "./_script.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("parseCpuList() reads Linux CPU lists and refuses garbage", () => {
  assert.deepEqual(parseCpuList("0-3,8,10-11\n"), [0, 1, 2, 3, 8, 10, 11]);
  assert.deepEqual(parseCpuList("5"), [5]);
  assert.deepEqual(parseCpuList("3-1"), []);
  assert.deepEqual(parseCpuList("x"), []);
});

const AFFINITY =
  "import os\n\ndef f(x):\n    return sorted(os.sched_getaffinity(0))\n";

Deno.test(
  "a timed request moves to a timing core, and other workers keep off it",
  opts,
  async () => {
    const cpus = parseCpuList(
      Deno.readTextFileSync("/proc/self/status").split("\n")
        .find((l) => l.startsWith("Cpus_allowed_list:"))!.split(":")[1]!,
    );
    const split = coreSplit(1);
    if (cpus.length < 2) {
      assert.equal(split, null, "one CPU: no timing core");
      return;
    }
    assert.ok(split, "the tests run with --allow-all, so FFI moves threads");
    assert.deepEqual([...split.work, ...split.timing], cpus);
    const sandbox = createSandbox({ warm: 1, python: "native" });
    try {
      // Call 0 is timed; call 1 runs after its samples, on the timing core.
      const timed = await sandbox.runCode({
        language: "python",
        code: AFFINITY,
        entry: "f",
        calls: [[0], [1]],
        timed: [{ call: 0, repeats: 2, sampleMs: 1 }],
      });
      assert.equal(timed.status, "ok");
      const after = timed.results[1]!;
      assert.ok(after.ok);
      assert.deepEqual(after.value, split.timing);
      // Timing has begun: an untimed request runs on the work cores only.
      const plain = await sandbox.runCode({
        language: "python",
        code: AFFINITY,
        entry: "f",
        calls: [[0]],
      });
      const got = plain.results[0]!;
      assert.ok(got.ok);
      assert.deepEqual(got.value, split.work);
    } finally {
      await sandbox.close();
    }
  },
);

const ASLEEP = {
  // native Python sleeps in the kernel; Pyodide's time.sleep spins, so
  // it is not among these
  python: "import time\ndef f(s):\n    time.sleep(s)\n    return s\n",
  javascript:
    "function f(s) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, s * 1000); return s; }",
} as const;

for (const language of ["python", "javascript"] as const) {
  Deno.test(
    `runCode() [${language}] a timed call's own limit is CPU time: waiting past it is not computing`,
    opts,
    async () => {
      const sandbox = createSandbox({ warm: 0, python: "native" });
      try {
        // 600 ms asleep against a 300 ms limit: no CPU spent, so the call
        // answers (the wall-time backstop is 3 × 300 + 1000 ms); a wall
        // limit would have killed it. Spinning past it is killed.
        const asleep = await sandbox.runCode({
          language,
          code: ASLEEP[language],
          entry: "f",
          calls: [[0], [0.6]],
          timed: [{ call: 1, repeats: 1, timeoutMs: 300 }],
          timeoutMs: 20_000,
        });
        assert.equal(asleep.status, "ok", asleep.error);
        const r = asleep.results[1]!;
        assert.ok(r.ok && r.value === 0.6);
        assert.ok(r.ms >= 550, `slept ${r.ms} ms`);
        const spin = await sandbox.runCode({
          language,
          code: language === "python"
            ? "def f(k):\n    while k:\n        pass\n"
            : "function f(k) { while (k) {} }",
          entry: "f",
          calls: [[1]],
          timed: [{ call: 0, repeats: 1, timeoutMs: 300 }],
          timeoutMs: 20_000,
        });
        assert.equal(spin.status, "timeout");
        assert.ok(spin.elapsedMs < 1_300, `killed after ${spin.elapsedMs} ms`);
      } finally {
        await sandbox.close();
      }
    },
  );
}

Deno.test(
  "without FFI (--deny-ffi) there is no timing core",
  opts,
  async () => {
    const lib = new URL("../../lib/sandbox/_cores.ts", import.meta.url).href;
    const text = await denoScriptOutput(
      `import { coreSplit } from "${lib}";
       console.log("split " + JSON.stringify(coreSplit(1)));`,
      ["--allow-all", "--deny-ffi"],
    );
    assert.match(text, /^split null$/m);
  },
);
