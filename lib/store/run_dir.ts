/**
 * Naming and creating run folders.
 *
 * @module
 */
import { join } from "node:path";

/**
 * The folder name of a run started at `date`: `<name>-<YYYYMMDD-HHMMSS>` (UTC).
 *
 * @param name The sweep name from the config.
 * @param date The start time.
 * @returns The folder name (not a path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runDirName } from "./run_dir.ts";
 * assert.equal(runDirName("demo", new Date("2026-01-02T03:04:05Z")), "demo-20260102-030405");
 * ```
 */
export function runDirName(name: string, date: Date): string {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.000Z
  const stamp = iso.slice(0, 10).replaceAll("-", "") + "-" +
    iso.slice(11, 19).replaceAll(":", "");
  return `${name}-${stamp}`;
}

/**
 * Creates a fresh run folder under `outputDir`. When the timestamped name is
 * taken (two runs in one second), a `-2`, `-3`... suffix is added.
 *
 * @param outputDir The folder that holds run folders (created if missing).
 * @param name The sweep name.
 * @param date The start time.
 * @returns The path of the new, empty folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRunDir } from "./run_dir.ts";
 * const base = await Deno.makeTempDir();
 * const date = new Date("2026-01-02T03:04:05Z");
 * const a = await createRunDir(base, "t", date);
 * const b = await createRunDir(base, "t", date);
 * assert.ok(a.endsWith("t-20260102-030405"));
 * assert.ok(b.endsWith("t-20260102-030405-2"));
 * await Deno.remove(base, { recursive: true });
 * ```
 */
export async function createRunDir(
  outputDir: string,
  name: string,
  date: Date = new Date(),
): Promise<string> {
  await Deno.mkdir(outputDir, { recursive: true });
  const base = runDirName(name, date);
  for (let i = 1;; i++) {
    const path = join(outputDir, i === 1 ? base : `${base}-${i}`);
    try {
      await Deno.mkdir(path);
      return path;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
}
