/**
 * What the sandbox's attack tables share: the probe that follows every
 * attack (the next request on the same pool must still answer correctly)
 * and the host's available memory watched while an attack runs.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  type Backend,
  type RunRequest,
  sameValue,
  type Sandbox,
} from "../../lib/sandbox/mod.ts";

/**
 * The probe after an attack, per language: it sees the arguments it was
 * sent, an empty `/tmp`, and nothing an attack left behind (files,
 * builtins, globals, a polluted prototype).
 */
export const PROBE: Record<"python" | "javascript", RunRequest> = {
  python: {
    language: "python",
    code: "import builtins, os\n" +
      "def probe(xs):\n" +
      "    return [sorted(xs), len(xs), str(xs), sorted(os.listdir('/tmp')), os.path.exists('/home/pyodide/leak.txt'), hasattr(builtins, 'LEAK'), globals().get('LEAK')]\n",
    entry: "probe",
    calls: [[[3, 1, 2]]],
  },
  javascript: {
    language: "javascript",
    code:
      "function probe(xs) { return [[...xs].sort((a, b) => a - b), xs.length, JSON.stringify(xs), ({}).polluted ?? false, typeof globalThis.LEAK === 'undefined' ? false : true, null]; }",
    entry: "probe",
    calls: [[[3, 1, 2]]],
  },
};

/** What `PROBE` must give. */
export const PROBE_OK = {
  python: [[1, 2, 3], 3, "[3, 1, 2]", [], false, false, null],
  javascript: [[1, 2, 3], 3, "[3,1,2]", false, false, null],
};

/** Runs `PROBE` on `sandbox` and asserts it answered on `backend`, correctly. */
export async function probeOn(
  sandbox: Sandbox,
  backend: Backend,
): Promise<void> {
  const lang = backend === "deno" ? "javascript" : "python";
  const r = await sandbox.runCode(PROBE[lang]);
  assert.equal(r.backend, backend, "the probe ran on another backend");
  assert.equal(r.status, "ok", `probe after the attack: ${r.error}`);
  const first = r.results[0]!;
  assert.ok(first.ok, "probe call failed");
  assert.ok(
    sameValue(first.value, PROBE_OK[lang]),
    `probe gave ${JSON.stringify(first.value)}`,
  );
}

/** The host's available memory (`MemAvailable`), MiB. */
export function availableMb(): number {
  const m = /^MemAvailable:\s+(\d+) kB/m.exec(
    Deno.readTextFileSync("/proc/meminfo"),
  );
  return Number(m![1]) / 1024;
}

/**
 * Runs `fn` while sampling the host's available memory every 20 ms: its
 * result and the largest fall from before it started, MiB.
 */
export async function fallDuring<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; fellMb: number }> {
  const before = availableMb();
  let least = before;
  const timer = setInterval(() => {
    least = Math.min(least, availableMb());
  }, 20);
  try {
    const value = await fn();
    least = Math.min(least, availableMb());
    return { value, fellMb: before - least };
  } finally {
    clearInterval(timer);
  }
}
