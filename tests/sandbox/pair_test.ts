/**
 * `TimingPair`: the timed samples of two requests take turns, one at a
 * time, on one CPU, so a ratio of their times compares like with like on a
 * machine whose speed changes. Seen from inside the sandbox: each native
 * Python sample writes its start and end (the system's monotonic clock,
 * which a bubblewrap sandbox shares) and its CPU affinity to stderr. A
 * partner that never gets to its samples, or dies among them, leaves the
 * other to go on alone.
 */
import assert from "node:assert/strict";
import { quietCpus } from "../../lib/sandbox/_cores.ts";
import {
  type CallResult,
  createSandbox,
  pairedRatio,
  type Sandbox,
  TimingPair,
} from "../../lib/sandbox/mod.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** A Python program whose every call logs `<tag> start end [cpus]`. */
function logging(tag: string, loops: number): string {
  return [
    "import os, sys, time",
    "",
    "def f(n):",
    "    t0 = time.monotonic()",
    "    s = 0",
    `    for i in range(${loops}):`,
    "        s += i % 7",
    "    t1 = time.monotonic()",
    `    sys.stderr.write("${tag} %r %r %s\\n" % (t0, t1, sorted(os.sched_getaffinity(0))))`,
    "    return n",
    "",
  ].join("\n");
}

interface Span {
  tag: string;
  t0: number;
  t1: number;
  cpus: string;
}

function spans(stderr: string, tag: string): Span[] {
  return stderr.split("\n").flatMap((l) => {
    const m = l.match(new RegExp(`^${tag} (\\S+) (\\S+) (.*)$`));
    return m ? [{ tag, t0: Number(m[1]), t1: Number(m[2]), cpus: m[3]! }] : [];
  });
}

const REPEATS = 5;
const timed = [{ call: 0, repeats: REPEATS, timeoutMs: 10_000 }];

/** Runs `body` on a fresh two-worker sandbox, closed after. */
async function withSandbox(
  python: "native" | "pyodide",
  body: (sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  const sandbox = createSandbox({ warm: 0, concurrency: 2, python });
  try {
    await body(sandbox);
  } finally {
    await sandbox.close();
  }
}

/**
 * A timed call reports each sample's time (the least no less than bestMs)
 * and its whole wall time.
 */
function assertSamples(c: CallResult, n: number): void {
  assert.ok(c.ok, JSON.stringify(c));
  const s = c.samplesMs ?? [];
  assert.equal(s.length, n, JSON.stringify(c));
  assert.ok(s.every((x) => x > 0), JSON.stringify(s));
  assert.ok(Math.min(...s) >= c.bestMs!, `${s} against ${c.bestMs}`);
  // the whole timed call: every run took at least the least wall time
  assert.ok(
    c.wallMs !== undefined && c.wallMs >= c.ms * c.runs! * 0.999,
    `wallMs ${c.wallMs} against ${c.ms} × ${c.runs}`,
  );
}

Deno.test("pairedRatio is the median of the per-sample ratios", () => {
  assert.equal(pairedRatio([1, 1, 1], [2, 4, 8]), 0.25);
  // the shorter side bounds the pairs; an even count averages the middle
  assert.equal(pairedRatio([2, 2, 2, 2, 9], [1, 2, 4, 8]), 0.75);
  // a phase caught by one side's sample moves one ratio, not the median
  assert.equal(pairedRatio([1, 0.5, 1, 1, 1], [2, 2, 2, 1, 2]), 0.5);
  assert.equal(pairedRatio([1, 1], [1, 1]), null);
  assert.equal(pairedRatio([1, 0, 1], [1, 1, 1]), null);
});

Deno.test(
  "paired samples alternate, never overlap, and share one timing CPU",
  opts,
  () =>
    withSandbox("native", async (sandbox) => {
      const pair = new TimingPair();
      const run = (tag: string, loops: number) =>
        sandbox.runCode({
          language: "python",
          code: logging(tag, loops),
          entry: "f",
          calls: [[1]],
          timed,
          pair,
        });
      // unequal work: unpaired, the shorter would finish its samples first
      const [a, b] = await Promise.all([run("A", 300_000), run("B", 100_000)]);
      for (const r of [a, b]) {
        assert.equal(r.status, "ok", r.error);
        const c = r.results[0]!;
        assert.ok(c.ok && c.value === 1 && (c.bestMs ?? 0) > 0);
        assertSamples(c, REPEATS);
      }
      // the value call (not gated: it runs while the partner loads) and
      // then the samples, each side
      const [as, bs] = [spans(a.stderr, "A"), spans(b.stderr, "B")];
      assert.equal(as.length, REPEATS + 1, a.stderr);
      assert.equal(bs.length, REPEATS + 1, b.stderr);
      const all = [...as.slice(1), ...bs.slice(1)]
        .sort((x, y) => x.t0 - y.t0);
      for (let i = 1; i < all.length; i++) {
        const [p, q] = [all[i - 1]!, all[i]!];
        if (p.tag !== q.tag) {
          assert.ok(
            q.t0 >= p.t1,
            `a ${q.tag} call started at ${q.t0} while ${p.tag}'s ran (to ${p.t1})`,
          );
        }
      }
      let switches = 0;
      for (let i = 1; i < all.length; i++) {
        if (all[i]!.tag !== all[i - 1]!.tag) switches++;
      }
      assert.ok(
        switches >= 2 * REPEATS - 2,
        `${switches} switches: ${all.map((s) => s.tag).join("")}`,
      );
      assert.ok(pair.turns >= 2 * REPEATS - 2, `${pair.turns} turns`);
      if (quietCpus() !== null) {
        // every sample (the last REPEATS lines of each side) on one CPU
        const cpus = new Set(all.map((s) => s.cpus));
        assert.equal(cpus.size, 1, [...cpus].join(" / "));
        assert.match([...cpus][0]!, /^\[\d+\]$/);
      }
    }),
);

Deno.test(
  "a partner that fails to load, or dies among its samples, leaves the other to finish alone",
  opts,
  () =>
    withSandbox("native", async (sandbox) => {
      for (
        const partner of [
          "def f(:\n    pass\n",
          // exits on its third call: its second sample
          "import os\ncalls = 0\n\ndef f(n):\n    global calls\n    calls += 1\n    if calls == 3:\n        os._exit(3)\n    return n\n",
        ]
      ) {
        const pair = new TimingPair();
        const run = (code: string) =>
          sandbox.runCode({
            language: "python",
            code,
            entry: "f",
            calls: [[1]],
            timed,
            pair,
          });
        const [alone, gone] = await Promise.all([
          run(logging("A", 50_000)),
          run(partner),
        ]);
        assert.notEqual(gone.status === "ok" && gone.results[0]!.ok, true);
        assert.equal(alone.status, "ok", alone.error);
        const c = alone.results[0]!;
        assert.ok(c.ok && c.value === 1 && (c.bestMs ?? 0) > 0);
        assert.equal(spans(alone.stderr, "A").length, REPEATS + 1);
      }
      // the pool still answers unpaired requests
      const after = await sandbox.runCode({
        language: "python",
        code: "def f(x):\n    return x + 1\n",
        entry: "f",
        calls: [[41]],
      });
      const got = after.results[0]!;
      assert.ok(got.ok && got.value === 42, after.error);
    }),
);

Deno.test(
  "a Pyodide request takes turns with its JavaScript partner like any other backend; a pair takes two requests",
  opts,
  () =>
    withSandbox("pyodide", async (sandbox) => {
      const pair = new TimingPair();
      const [py, js] = await Promise.all([
        sandbox.runCode({
          language: "python",
          code: "def f(n):\n    return sum(range(n))\n",
          entry: "f",
          calls: [[1000]],
          timed,
          pair,
        }),
        sandbox.runCode({
          language: "javascript",
          code:
            "function f(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }",
          entry: "f",
          calls: [[1000]],
          timed,
          pair,
        }),
      ]);
      for (const r of [py, js]) {
        assert.equal(r.status, "ok", r.error);
        const c = r.results[0]!;
        assert.ok(
          c.ok && c.value === 499500 && (c.bestMs ?? 0) > 0,
          JSON.stringify(c),
        );
        assertSamples(c, REPEATS);
      }
      assert.equal(py.backend, "pyodide");
      // the parent drives every backend's samples, so Pyodide pairs too
      assert.ok(pair.turns >= REPEATS, `turns ${pair.turns}`);
      await assert.rejects(
        sandbox.runCode({
          language: "javascript",
          code: "function f() { return 1; }",
          entry: "f",
          calls: [[]],
          pair,
        }),
        /TimingPair pairs two requests/,
      );
    }),
);
