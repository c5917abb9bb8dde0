/**
 * Quiet timing on cores of its own: the timed part of a request runs on a
 * CPU of its own, and meanwhile the other workers run on the remaining
 * CPUs — seen from inside the sandbox (native Python reads its own CPU
 * affinity). Which CPUs time is not fixed: with no timing running, work
 * may use every CPU; a timing takes the last free CPU only while no work
 * runs, and work that arrives then waits for a CPU to be given back. On a
 * machine with one CPU or without FFI there are no timing cores and
 * timing runs alone in its pool. A timed call's own limit is CPU time, so
 * a call that waits for a shared work core is not cut short.
 */
import assert from "node:assert/strict";
import {
  parseCpuList,
  quietCpus,
  takeTimingCore,
} from "../../lib/sandbox/_cores.ts";
import { createSandbox, type Sandbox } from "../../lib/sandbox/mod.ts";
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

/** The CPUs this process may use, as the kernel lists them. */
function ownCpus(): number[] {
  return parseCpuList(
    Deno.readTextFileSync("/proc/self/status").split("\n")
      .find((l) => l.startsWith("Cpus_allowed_list:"))!.split(":")[1]!,
  );
}

/** The CPUs an untimed native Python request runs on. */
async function workAffinity(sandbox: Sandbox): Promise<unknown> {
  const r = await sandbox.runCode({
    language: "python",
    code: AFFINITY,
    entry: "f",
    calls: [[0]],
  });
  const got = r.results[0]!;
  assert.ok(got.ok, r.error);
  return got.value;
}

Deno.test(
  "a timed request moves to a CPU of its own; with no timing running, work may use every CPU",
  opts,
  async () => {
    const cpus = ownCpus();
    if (cpus.length < 2) {
      assert.equal(quietCpus(), null, "one CPU: no timing core");
      return;
    }
    assert.deepEqual(
      quietCpus(),
      cpus,
      "the tests run with --allow-all, so FFI moves threads",
    );
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
      assert.equal((after.value as number[]).length, 1, "one CPU");
      assert.ok(cpus.includes((after.value as number[])[0]!));
      // That timing is over: work may use every CPU again.
      assert.deepEqual(await workAffinity(sandbox), cpus);
    } finally {
      await sandbox.close();
    }
  },
);

Deno.test(
  "work keeps off a timing's CPU, and waits while every CPU times",
  opts,
  async () => {
    const cpus = ownCpus();
    if (cpus.length < 2) return; // no timing cores (the test above)
    // unref false: the warm worker's start keeps the test alive
    const sandbox = createSandbox({ warm: 1, python: "native", unref: false });
    const taken: { core: number; give: () => void }[] = [];
    try {
      // Work already running moves off a CPU a timing takes.
      assert.deepEqual(await workAffinity(sandbox), cpus);
      const running = sandbox.runCode({
        language: "python",
        code:
          `import time\n${AFFINITY}\ndef g(s):\n    time.sleep(s)\n    return f(0)\n`,
        entry: "g",
        calls: [[0.5]],
      });
      await new Promise((r) => setTimeout(r, 200));
      taken.push(await takeTimingCore());
      const rest = cpus.filter((c) => c !== taken[0]!.core);
      const moved = (await running).results[0]!;
      assert.ok(moved.ok);
      assert.deepEqual(moved.value, rest);
      // And work that starts meanwhile starts there.
      assert.deepEqual(await workAffinity(sandbox), rest);
      // No work runs now (the refill's worker counts until it is ready),
      // so timings may take every other CPU.
      while (taken.length < cpus.length) taken.push(await takeTimingCore());
      let answered = false;
      const waiting = workAffinity(sandbox).then((v) => {
        answered = true;
        return v;
      });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(answered, false, "work waits while every CPU times");
      const back = taken.pop()!;
      back.give();
      assert.deepEqual(await waiting, [back.core]);
    } finally {
      for (const t of taken) t.give();
      await sandbox.close();
    }
  },
);

Deno.test(
  "a timing takes the last free CPU only once no work runs",
  opts,
  async () => {
    const cpus = ownCpus();
    if (cpus.length < 2) return;
    const sandbox = createSandbox({ warm: 0, python: "native" });
    const taken: { core: number; give: () => void }[] = [];
    try {
      assert.deepEqual(await workAffinity(sandbox), cpus);
      while (taken.length < cpus.length - 1) {
        taken.push(await takeTimingCore());
      }
      // Work that sleeps 0.6 s on the last free CPU (the backend was
      // chosen above, so the request starts at once).
      const work = sandbox.runCode({
        language: "python",
        code: "import time\ndef f(s):\n    time.sleep(s)\n    return s\n",
        entry: "f",
        calls: [[0.6]],
      });
      await new Promise((r) => setTimeout(r, 100)); // it has begun
      let got = false;
      const last = takeTimingCore().then((t) => {
        got = true;
        taken.push(t);
      });
      await new Promise((r) => setTimeout(r, 250));
      assert.equal(got, false, "no timing takes the last CPU while work runs");
      assert.equal((await work).status, "ok");
      await last; // once the work ended
    } finally {
      for (const t of taken) t.give();
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
      `import { quietCpus } from "${lib}";
       console.log("cpus " + JSON.stringify(quietCpus()));`,
      ["--allow-all", "--deny-ffi"],
    );
    assert.match(text, /^cpus null$/m);
  },
);
