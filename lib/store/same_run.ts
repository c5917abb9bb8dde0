/**
 * Telling when run folders given to one command are the same run, so a
 * run given twice (under two spellings of its path, or as a copy) is
 * counted once.
 *
 * @module
 */
import { join } from "node:path";
import { identityOf } from "./identity.ts";

/** What {@linkcode distinctRuns} kept and why it left folders out. */
export interface DistinctRuns {
  /** The folders to use, each run once, in the order given. */
  dirs: string[];
  /** One line per folder left out, naming the folder it repeats. */
  warnings: string[];
}

/**
 * The run folders given, each run once: two paths to one folder (`out/r`,
 * `./out/r/`, a symlink) or two folders holding the same run (the same run
 * id, identity and shard: a copy) are one run, kept at its first mention.
 * A folder that cannot be resolved is kept, for the caller to name.
 *
 * @param dirs Run folders as given.
 * @returns The distinct folders and a warning for each one left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { distinctRuns } from "./same_run.ts";
 * const dir = await Deno.makeTempDir();
 * const { dirs, warnings } = await distinctRuns([dir, `${dir}/`, `${dir}/../${dir.split("/").at(-1)}`]);
 * assert.deepEqual(dirs, [dir]);
 * assert.equal(warnings.length, 2);
 * assert.match(warnings[0]!, /is the same run as .*the same folder/);
 * await Deno.remove(dir);
 * ```
 */
export async function distinctRuns(
  dirs: readonly string[],
): Promise<DistinctRuns> {
  const seen = new Map<string, string>();
  const out: string[] = [];
  const warnings: string[] = [];
  for (const dir of dirs) {
    let real: string;
    try {
      real = await Deno.realPath(dir);
    } catch {
      out.push(dir);
      continue;
    }
    const ids = [`folder ${real}`];
    try {
      const manifest = JSON.parse(
        await Deno.readTextFile(join(real, "manifest.json")),
      );
      const identity = identityOf(manifest);
      if (identity !== null && typeof manifest.run === "string") {
        ids.push(
          `run ${manifest.run} ${identity.hash} ${
            JSON.stringify(manifest.shard ?? null)
          }`,
        );
      }
    } catch {
      // No readable manifest: the folder alone says which run it is.
    }
    const first = ids.map((id) => seen.get(id)).find((d) => d !== undefined);
    if (first !== undefined) {
      warnings.push(
        `${dir} is the same run as ${first} (${
          seen.get(ids[0]!) === first
            ? "the same folder"
            : "a copy of it: the same run id, identity and shard"
        }); its rows are counted once`,
      );
      continue;
    }
    for (const id of ids) seen.set(id, dir);
    out.push(dir);
  }
  return { dirs: out, warnings };
}
