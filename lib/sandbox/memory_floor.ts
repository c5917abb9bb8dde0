/**
 * The least memory limit a sandbox worker starts with. Below it a Deno
 * worker (JavaScript, or Pyodide's) dies in V8's heap set-up ("Fatal
 * JavaScript out of memory: GC during deserialization") before it can run
 * anything, which is not the program's fault: such a limit is refused as
 * bad input before a worker starts.
 *
 * Each floor was found by a binary search over `memoryMb` with the real
 * sandbox (`createSandbox({ warm: 0 })`, one call of a one-line function,
 * Deno 2.9.6 on x86-64 Linux), then raised to where repeated starts never
 * failed: start-up memory moves with the Deno and V8 version.
 *
 * @module
 */
import type { Backend, Language, PythonChoice } from "./types.ts";

/**
 * JavaScript and TypeScript (a Deno worker with `--max-old-space-size`):
 * measured 4 MiB never starts (0 of 20), 5 MiB starts (20 of 20); 8 MiB
 * started 30 of 30.
 */
export const DENO_MEMORY_FLOOR_MB = 8;

/**
 * Pyodide (a Deno worker restoring a Pyodide snapshot): measured 19 MiB
 * starts 2 times in 8, 20 MiB 29 in 30, 22 MiB 20 of 20; 24 MiB started
 * 30 of 30.
 */
export const PYODIDE_MEMORY_FLOOR_MB = 24;

/**
 * Native CPython in bubblewrap: the limit is a resident-memory kill line
 * above the idle interpreter and an address-space cap with room, so the
 * least value the sandbox takes (1 MiB) starts and runs (10 of 10).
 */
export const NATIVE_MEMORY_FLOOR_MB = 1;

/** Each backend's floor, in MiB. */
export const MEMORY_FLOOR_MB: Readonly<Record<Backend, number>> = {
  deno: DENO_MEMORY_FLOOR_MB,
  pyodide: PYODIDE_MEMORY_FLOOR_MB,
  native: NATIVE_MEMORY_FLOOR_MB,
};

/**
 * The least memory limit that starts a worker for a language, before the
 * backend is known: for Python under `"auto"` the larger of native's and
 * Pyodide's (the machine decides which runs).
 *
 * @param language The program's language.
 * @param python How Python runs. @default "auto"
 * @returns The floor in MiB.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoryFloorMb } from "./memory_floor.ts";
 * assert.equal(memoryFloorMb("javascript"), 8);
 * assert.equal(memoryFloorMb("python", "native"), 1);
 * assert.equal(memoryFloorMb("python", "auto"), 24);
 * ```
 */
export function memoryFloorMb(
  language: Language,
  python: PythonChoice = "auto",
): number {
  if (language !== "python") return DENO_MEMORY_FLOOR_MB;
  if (python === "native") return NATIVE_MEMORY_FLOOR_MB;
  if (python === "pyodide") return PYODIDE_MEMORY_FLOOR_MB;
  return Math.max(NATIVE_MEMORY_FLOOR_MB, PYODIDE_MEMORY_FLOOR_MB);
}

/** What each backend is called in a message. */
const WORKER: Record<Backend, string> = {
  deno: "a JavaScript worker (Deno)",
  pyodide: "a Pyodide worker",
  native: "a native Python worker",
};

/**
 * Refuses a memory limit below a backend's floor, before a worker starts.
 *
 * @param backend Where the program would run.
 * @param limit `memoryMb`, the limit asked for, in MiB, and `name`, what the
 *   limit is called where it was set ("memoryMb", "--memory").
 * @throws {RangeError} "Cannot run code: <name> <n> is below the <floor> MiB
 *   <worker> needs to start; give <name> <floor> or more".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkMemoryFloor } from "./memory_floor.ts";
 * checkMemoryFloor("deno", { memoryMb: 8, name: "memoryMb" });
 * assert.throws(() => checkMemoryFloor("pyodide", { memoryMb: 20, name: "--memory" }), /--memory 20 is below the 24 MiB a Pyodide worker needs to start; give --memory 24 or more/);
 * ```
 */
export function checkMemoryFloor(
  backend: Backend,
  { memoryMb, name }: { memoryMb: number; name: string },
): void {
  const floor = MEMORY_FLOOR_MB[backend];
  if (memoryMb >= floor) return;
  throw new RangeError(
    `Cannot run code: ${name} ${memoryMb} is below the ${floor} MiB ${
      WORKER[backend]
    } needs to start; give ${name} ${floor} or more`,
  );
}
