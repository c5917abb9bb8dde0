/**
 * One measurement per child process, so that the time and memory of one do
 * not mix with another's. The parent runs a bench file again (`deno run -A
 * <file> <args>`) with {@linkcode measureChild}; the child does one thing
 * inside {@linkcode printMeasured}, which prints the result, its time and
 * the child's peak RSS as the last line of stdout. {@linkcode runChild} runs
 * a child that prints nothing the parent reads (one that writes files).
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** What {@linkcode printMeasured} adds to a child's result. */
export interface Measured {
  /** Time of the work, in ms (the process's start-up not counted). */
  ms: number;
  /** Peak RSS of the child (`VmHWM`), in MB; NaN off Linux. */
  hwmMB: number;
}

/**
 * Peak resident memory of this process (`VmHWM` in /proc/self/status).
 *
 * @returns Megabytes (2^20 bytes), or NaN where /proc cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { peakMB } from "./_child.ts";
 * const mb = peakMB();
 * assert.ok(Number.isNaN(mb) || mb > 1);
 * ```
 */
export function peakMB(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

/**
 * Child side: runs `work`, then prints `{ ...result, ms, hwmMB }` as one
 * JSON line for {@linkcode measureChild}.
 *
 * @param work The one measured thing; its result must be JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { printMeasured } from "./_child.ts";
 * const lines: string[] = [];
 * const log = console.log;
 * console.log = (line: string) => lines.push(line);
 * try {
 *   await printMeasured(() => ({ rows: 3 }));
 * } finally {
 *   console.log = log;
 * }
 * const printed = JSON.parse(lines[0]!);
 * assert.equal(printed.rows, 3);
 * assert.ok(printed.ms >= 0);
 * ```
 */
export async function printMeasured<T extends object>(
  work: () => T | Promise<T>,
): Promise<void> {
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ...result, ms, hwmMB: peakMB() }));
}

/**
 * Parent side: runs `deno run -A <script> <args>` to the end, its output
 * piped.
 *
 * @param script The bench file (its `import.meta.url`).
 * @param args Arguments after the script (the child's entry and inputs).
 * @param action What the child does, for the error: "Cannot <action>: ...".
 * @returns The child's stdout.
 * @throws {Error} When the child fails, with its stderr.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runChild } from "./_child.ts";
 * const script = await Deno.makeTempFile({ suffix: ".ts" });
 * await Deno.writeTextFile(script, "console.log(Deno.args.join(' '));");
 * try {
 *   assert.equal(await runChild(script, ["a", "b"], "echo"), "a b\n");
 *   await Deno.writeTextFile(script, "throw new Error('boom');");
 *   await assert.rejects(runChild(script, [], "fail"), /^Error: Cannot fail: .*boom/s);
 * } finally {
 *   await Deno.remove(script);
 * }
 * ```
 */
export async function runChild(
  script: string | URL,
  args: readonly string[],
  action: string,
): Promise<string> {
  const path = String(script).startsWith("file:")
    ? fileURLToPath(script)
    : String(script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", path, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `Cannot ${action}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return new TextDecoder().decode(out.stdout);
}

/**
 * Parent side: {@linkcode runChild}, then the result the child printed
 * with {@linkcode printMeasured} (its last line of stdout).
 *
 * @param script The bench file (its `import.meta.url`).
 * @param args Arguments after the script (the child's entry and inputs).
 * @param action What the child does, for the error: "Cannot <action>: ...".
 * @returns The child's result with its time and peak RSS.
 * @throws {Error} When the child fails or prints no result.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureChild } from "./_child.ts";
 * const script = await Deno.makeTempFile({ suffix: ".ts" });
 * await Deno.writeTextFile(
 *   script,
 *   `import { printMeasured } from "${import.meta.resolve("./_child.ts")}";
 *    await printMeasured(() => ({ rows: Number(Deno.args[0]) }));`,
 * );
 * try {
 *   const { rows, ms, hwmMB } = await measureChild<{ rows: number }>(script, ["7"], "count");
 *   assert.equal(rows, 7);
 *   assert.ok(ms >= 0 && (Number.isNaN(hwmMB) || hwmMB > 1));
 * } finally {
 *   await Deno.remove(script);
 * }
 * ```
 */
export async function measureChild<T extends object>(
  script: string | URL,
  args: readonly string[],
  action: string,
): Promise<T & Measured> {
  const stdout = await runChild(script, args, action);
  const line = stdout.trim().split("\n").pop();
  if (!line) throw new Error(`Cannot ${action}: the child printed no result`);
  return JSON.parse(line) as T & Measured;
}
