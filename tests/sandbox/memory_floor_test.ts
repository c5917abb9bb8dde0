/**
 * The memory floors of `lib/sandbox/memory_floor.ts`: a limit below a
 * backend's floor is refused before any worker starts, and a worker of
 * each Deno-based backend starts and answers at its floor (a Deno or V8
 * upgrade that needs more start-up memory fails here, not in a sweep).
 */
import assert from "node:assert/strict";
import {
  createSandbox,
  DENO_MEMORY_FLOOR_MB,
  PYODIDE_MEMORY_FLOOR_MB,
} from "../../lib/sandbox/mod.ts";

const JS = "function f(x) { return x + 1; }";
const PY = "def f(x):\n    return x + 1\n";

Deno.test("runCode() refuses a memoryMb below the backend's floor, naming it and the floor", async () => {
  const sandbox = createSandbox({ warm: 0, python: "pyodide" });
  try {
    await assert.rejects(
      sandbox.runCode({
        language: "javascript",
        code: JS,
        entry: "f",
        calls: [[1]],
        memoryMb: DENO_MEMORY_FLOOR_MB - 1,
      }),
      new RegExp(
        `memoryMb ${
          DENO_MEMORY_FLOOR_MB - 1
        } is below the ${DENO_MEMORY_FLOOR_MB} MiB`,
      ),
    );
    await assert.rejects(
      sandbox.runCode({
        language: "python",
        code: PY,
        entry: "f",
        calls: [[1]],
        memoryMb: 1,
      }),
      (e) =>
        e instanceof RangeError &&
        e.message.includes(`give memoryMb ${PYODIDE_MEMORY_FLOOR_MB} or more`),
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("a JavaScript and a Pyodide worker start and answer at their floors", async () => {
  const sandbox = createSandbox({ warm: 0, python: "pyodide" });
  try {
    for (
      const [language, code, memoryMb] of [
        ["javascript", JS, DENO_MEMORY_FLOOR_MB],
        ["python", PY, PYODIDE_MEMORY_FLOOR_MB],
      ] as const
    ) {
      for (let i = 0; i < 3; i++) {
        const r = await sandbox.runCode({
          language,
          code,
          entry: "f",
          calls: [[1]],
          memoryMb,
          timeoutMs: 60_000,
        });
        assert.equal(
          r.status,
          "ok",
          `${language} at ${memoryMb} MiB: ${r.error}`,
        );
        assert.deepEqual(r.results.map((c) => c.ok && c.value), [2]);
      }
    }
  } finally {
    await sandbox.close();
  }
});
