/**
 * The flags of a `deno task` in `deno.json`, so a benchmark runs its child
 * exactly as the task would (permissions and V8 flags), without a copy
 * that drifts.
 *
 * @module
 */

/** A task's `deno run` flags, split into V8 flags and the rest. */
export interface TaskFlags {
  /** Everything between `deno run` and the script, except `--v8-flags`. */
  flags: string[];
  /** The V8 flags the task passes (each `--name=value`), in order. */
  v8: string[];
}

/**
 * Reads the `deno run` flags of one task of `deno.json`.
 *
 * @param configPath Path to `deno.json`.
 * @param task The task's name, e.g. `sweep`.
 * @returns Its flags and V8 flags.
 * @throws {Error} when the task is missing or is not `deno run … script`.
 */
export function taskFlags(configPath: string, task: string): TaskFlags {
  const config = JSON.parse(Deno.readTextFileSync(configPath)) as {
    tasks?: Record<string, string>;
  };
  const line = config.tasks?.[task];
  const words = line?.trim().split(/\s+/) ?? [];
  if (words[0] !== "deno" || words[1] !== "run") {
    throw new Error(
      `Cannot read the task "${task}" of ${configPath}: expected "deno run <flags> <script>", found ${
        JSON.stringify(line)
      }`,
    );
  }
  const out: TaskFlags = { flags: [], v8: [] };
  for (const word of words.slice(2)) {
    if (!word.startsWith("-")) break; // the script
    if (word.startsWith("--v8-flags=")) {
      out.v8.push(...word.slice("--v8-flags=".length).split(","));
    } else out.flags.push(word);
  }
  return out;
}
