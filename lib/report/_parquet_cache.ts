/**
 * The Parquet cache of a run's rows (`.results.cache.parquet`, with its
 * stamp in `.results.cache.json`): written when a load had to parse the
 * whole `results.jsonl`, read instead of it while the JSONL's size, mtime
 * and complete-lines prefix are those the cache was made from.
 *
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import type { DataFrame } from "./frame.ts";

// 2: rows gained `prompt` (a cache made before lacks the column).
const CACHE_VERSION = 2;
const CACHE_FILE = ".results.cache.parquet";
const CACHE_META = ".results.cache.json";

/** What identifies the JSONL content a cache was made from. */
export interface Stamp {
  version: number;
  size: number;
  prefix: number;
  mtimeMs: number | null;
}

/**
 * The stamp of a results file as it is now.
 *
 * @param path The `results.jsonl` path.
 * @param prefix Bytes of complete lines in it.
 * @returns What a cache made from it now would be keyed on.
 */
export async function jsonlStamp(path: string, prefix: number): Promise<Stamp> {
  const st = await Deno.stat(path);
  return {
    version: CACHE_VERSION,
    size: st.size,
    prefix,
    mtimeMs: st.mtime?.getTime() ?? null,
  };
}

/**
 * The cached rows of a run folder, when the cache was made from the JSONL
 * as it is now.
 *
 * @param dir The run folder.
 * @param stamp The JSONL's stamp now (see {@linkcode jsonlStamp}).
 * @param columns Only these columns (those the cache has). @default all
 * @returns The rows and their dims columns, or null (no cache, a stale or unreadable one).
 */
export async function readCache(
  dir: string,
  stamp: Stamp,
  columns: readonly string[] | undefined,
): Promise<{ frame: DataFrame; dims: string[] } | null> {
  try {
    const meta = JSON.parse(await Deno.readTextFile(join(dir, CACHE_META)));
    if (JSON.stringify(meta.stamp) !== JSON.stringify(stamp)) return null;
    const path = join(dir, CACHE_FILE);
    let frame: DataFrame;
    if (columns) {
      const lazy = pl.scanParquet(path);
      const have = new Set(meta.columns as string[]);
      frame = lazy.select(...columns.filter((c) => have.has(c))).collectSync();
    } else {
      frame = pl.readParquet(path);
    }
    return { frame, dims: meta.dims as string[] };
  } catch {
    return null; // No cache, or an unreadable one: load the JSONL.
  }
}

/**
 * Writes the cache of a run folder's rows, beside and then by a rename;
 * a folder that cannot be written goes without one.
 *
 * @param dir The run folder.
 * @param stamp The stamp of the JSONL the rows were read from.
 * @param frame Every row, with every column.
 * @param dims Its dims columns.
 */
export async function writeCache(
  dir: string,
  stamp: Stamp,
  frame: DataFrame,
  dims: string[],
): Promise<void> {
  try {
    // Write beside, then rename: a reader never sees a half-written file.
    const tmp = join(dir, `${CACHE_FILE}.${crypto.randomUUID()}.tmp`);
    frame.writeParquet(tmp);
    await Deno.rename(tmp, join(dir, CACHE_FILE));
    await Deno.writeTextFile(
      join(dir, CACHE_META),
      JSON.stringify({ stamp, dims, columns: frame.columns }),
    );
  } catch {
    // A read-only run folder just goes without a cache.
  }
}
