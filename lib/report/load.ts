import pl from "nodejs-polars";
import type { DataFrame, DataType } from "./frame.ts";
import { join, resolve } from "node:path";
import { completePrefix } from "./_jsonl.ts";

/** What {@linkcode loadRuns} knows about each run folder it read. */
export interface RunInfo {
  /** The folder as given. */
  dir: string;
  /** `manifest.json`, parsed, or null when the folder has none. */
  manifest: Record<string, unknown> | null;
  /** Rows read from `results.jsonl`. */
  rows: number;
  /** Whether a torn last line was dropped. */
  torn: boolean;
}

/** The result frame with what was learned while loading it. */
export interface LoadedRuns {
  /** One row per ResultRow; dims as their own columns; `cost` when priced. */
  frame: DataFrame;
  /** Names of the columns that came from `dims` (e.g. `family`, `digits`). */
  dims: string[];
  /** What was read from each run folder, in the order given. */
  runs: RunInfo[];
  /** Things worth telling the user (a dropped torn line, a missing manifest). */
  warnings: string[];
}

/** Options for {@linkcode loadRuns}. */
export interface LoadRunsOptions {
  /** Fail instead of dropping a torn last line. @default {false} */
  strict?: boolean;
  /** Print warnings with console.warn as well as returning them. @default {true} */
  warn?: boolean;
  /**
   * Keep a columnar copy (`.results.cache.parquet` in the run folder, keyed
   * on the JSONL's size and mtime) and read it instead of the JSONL while
   * the JSONL is unchanged. Polars parses NDJSON slower than V8's
   * JSON.parse, but reads Parquet many times faster. @default {true}
   */
  cache?: boolean;
  /**
   * Load only these columns (ResultRow fields or dims names; missing ones
   * are skipped). From the cache only these are read. @default all columns
   */
  columns?: readonly string[];
}

/** Types of the ResultRow columns; declared so all-null columns keep their type. */
export const RESULT_SCHEMA: Record<string, DataType> = {
  key: pl.Utf8,
  run: pl.Utf8,
  model: pl.Utf8,
  suite: pl.Utf8,
  question_id: pl.Utf8,
  template: pl.Utf8,
  sample: pl.Int64,
  question: pl.Utf8,
  expected: pl.Utf8,
  status: pl.Utf8,
  correct: pl.Bool,
  score: pl.Float64,
  format_valid: pl.Bool,
  error_class: pl.Utf8,
  rel_error: pl.Float64,
  extracted: pl.Utf8,
  extract_rule: pl.Utf8,
  response: pl.Utf8,
  reasoning: pl.Utf8,
  finish_reason: pl.Utf8,
  prompt_tokens: pl.Int64,
  completion_tokens: pl.Int64,
  latency_ms: pl.Float64,
  attempts: pl.Int64,
  cached: pl.Bool,
  error_kind: pl.Utf8,
  error_message: pl.Utf8,
  explanation: pl.Utf8,
  transcript: pl.Utf8,
  finished_at: pl.Utf8,
};

/**
 * Loads one or several run folders (`manifest.json` + `results.jsonl`) into
 * one Polars frame. Polars reads the JSONL natively with the schema inferred
 * over every line, so a `dims` key that first appears late (or only in one
 * suite) still becomes a column; dims clashing with a ResultRow column are
 * prefixed `dim_`. A torn last line (a crash mid-append) is dropped with a
 * warning. When the manifest gives `models[].price` ({input, output} per
 * million tokens), a `cost` column holds each row's cost.
 *
 * @param dirs One run folder or several.
 * @param options Strictness and warning output.
 * @returns The frame, its dims columns, per-run info and warnings.
 * @throws {Deno.errors.NotFound} "Cannot load run ..." when a folder or its results.jsonl is missing.
 * @throws {SyntaxError} When a line other than the last is not JSON, or (strict) the last is torn.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "./mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const row = (model: string, correct: boolean, dims: object) =>
 *   JSON.stringify({ model, correct, dims, prompt_tokens: 10, completion_tokens: 5 });
 * await Deno.writeTextFile(`${dir}/results.jsonl`, [
 *   row("a", true, { family: "add" }),
 *   row("b", false, { family: "mul", digits: 4 }),
 * ].join("\n") + "\n");
 * const { frame, dims } = await loadRuns(dir, { warn: false });
 * assert.deepEqual(dims, ["family", "digits"]);
 * assert.equal(frame.height, 2);
 * assert.deepEqual(frame.getColumn("digits").toArray(), [null, 4]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadRuns(
  dirs: string | readonly string[],
  options: LoadRunsOptions = {},
): Promise<LoadedRuns> {
  const { strict = false, warn = true, cache = true, columns } = options;
  const list = typeof dirs === "string" ? [dirs] : [...dirs];
  if (list.length === 0) {
    throw new RangeError("Cannot load runs: no run folder given");
  }
  const frames: DataFrame[] = [];
  const runs: RunInfo[] = [];
  const warnings: string[] = [];
  const dimSet = new Set<string>();
  for (const dir of list) {
    const one = await loadOne(dir, { strict, cache, columns }, warnings);
    frames.push(one.frame);
    runs.push(one.info);
    for (const d of one.dims) dimSet.add(d);
  }
  if (warn) { for (const w of warnings) console.warn(w); }
  const frame = frames.length === 1
    ? frames[0] as DataFrame
    : pl.concat(frames, { how: "diagonalRelaxed" });
  return { frame, dims: [...dimSet], runs, warnings };
}

async function loadOne(
  dir: string,
  options: {
    strict: boolean;
    cache: boolean;
    columns: readonly string[] | undefined;
  },
  warnings: string[],
): Promise<{ frame: DataFrame; info: RunInfo; dims: string[] }> {
  const { strict, cache, columns } = options;
  try {
    const stat = await Deno.stat(dir);
    if (!stat.isDirectory) {
      throw new Deno.errors.NotFound(
        `Cannot load run ${dir}: not a folder (give a run folder holding results.jsonl)`,
      );
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(
        `Cannot load run ${dir}: no such run folder (${
          resolve(dir)
        }); expected a folder under outputs/ holding manifest.json and results.jsonl`,
      );
    }
    throw error;
  }
  const manifest = await readManifest(dir, warnings);
  const results = join(dir, "results.jsonl");
  let end;
  try {
    end = await completePrefix(results);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(
        `Cannot load run ${dir}: it has no results.jsonl (has the sweep started?)`,
      );
    }
    throw error;
  }
  const stamp = cache ? await jsonlStamp(results, end.prefix) : null;
  const cached = stamp ? await readCache(dir, stamp, columns) : null;
  const info = (rows: number) => ({ dir, manifest, rows, torn: end.torn });
  if (end.torn) {
    const message =
      `Cannot read the last line of ${results}: it is torn (byte ${end.prefix} to ${end.size}, a run stopped mid-write)`;
    if (strict) throw new SyntaxError(message);
    warnings.push(`${message}; dropped it and loaded the complete lines`);
  }
  if (cached) {
    const frame = addCost(cached.frame, manifest);
    return { frame, info: info(frame.height), dims: cached.dims };
  }
  let path = results;
  let tmp: string | null = null;
  if (end.torn) {
    // Polars cannot be told to stop before a byte offset, so read a truncated copy.
    tmp = await Deno.makeTempFile({ suffix: ".jsonl" });
    await Deno.copyFile(results, tmp);
    await Deno.truncate(tmp, end.prefix);
    path = tmp;
  }
  try {
    let frame = end.prefix === 0 ? emptyFrame() : scan(path, results);
    const dimPairs = structFields(frame, "dims", "dim_");
    frame = unnestStruct(frame, "dims", dimPairs);
    // A suite's per-row metrics become columns the same way (after dims,
    // so a clash takes the "metric_" prefix).
    frame = unnestStruct(
      frame,
      "metrics",
      structFields(frame, "metrics", "metric_"),
    );
    const dims = dimPairs.map(([, to]) => to);
    if (stamp) await writeCache(dir, stamp, frame, dims);
    if (columns) {
      frame = frame.select(...columns.filter((c) => frame.columns.includes(c)));
    }
    frame = addCost(frame, manifest);
    return { frame, info: info(frame.height), dims };
  } finally {
    if (tmp) await Deno.remove(tmp);
  }
}

const CACHE_VERSION = 1;
const CACHE_FILE = ".results.cache.parquet";
const CACHE_META = ".results.cache.json";

/** What identifies the JSONL content a cache was made from. */
interface Stamp {
  version: number;
  size: number;
  prefix: number;
  mtimeMs: number | null;
}

async function jsonlStamp(path: string, prefix: number): Promise<Stamp> {
  const st = await Deno.stat(path);
  return {
    version: CACHE_VERSION,
    size: st.size,
    prefix,
    mtimeMs: st.mtime?.getTime() ?? null,
  };
}

async function readCache(
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

async function writeCache(
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

function scan(path: string, shownPath: string): DataFrame {
  try {
    const frame = pl.scanJson(path, { inferSchemaLength: null }).collectSync();
    // Cast the known columns present in the file to their declared types.
    const casts = Object.entries(RESULT_SCHEMA)
      .filter(([name]) => frame.columns.includes(name))
      .map(([name, type]) => pl.col(name).cast(type));
    return casts.length ? frame.withColumns(...casts) : frame;
  } catch (error) {
    throw new SyntaxError(
      `Cannot load ${shownPath}: it is not valid JSON lines (${
        String((error as Error).message ?? error).split("\n")[0]
      })`,
    );
  }
}

function emptyFrame(): DataFrame {
  const cols: Record<string, unknown[]> = {};
  for (const name of Object.keys(RESULT_SCHEMA)) cols[name] = [];
  return pl.DataFrame(cols, { schema: RESULT_SCHEMA });
}

/** [struct field, column name] pairs for a struct column (dims, metrics). */
function structFields(
  frame: DataFrame,
  column: string,
  prefix: string,
): [string, string][] {
  if (!frame.columns.includes(column)) return [];
  const dtype = frame.getColumn(column).dtype as unknown as {
    fields?: { name: string }[];
  };
  const fields = dtype.fields ?? [];
  const taken = new Set(frame.columns);
  return fields.map(({ name }) => [
    name,
    taken.has(name) ? `${prefix}${name}` : name,
  ]);
}

function unnestStruct(
  frame: DataFrame,
  column: string,
  fields: [string, string][],
): DataFrame {
  if (!frame.columns.includes(column)) return frame;
  if (fields.length === 0) return frame.drop(column);
  return frame
    .withColumns(
      pl.col(column).struct.renameFields(fields.map(([, to]) => to)),
    )
    .unnest(column);
}

async function readManifest(
  dir: string,
  warnings: string[],
): Promise<Record<string, unknown> | null> {
  const path = join(dir, "manifest.json");
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      warnings.push(
        `Cannot read ${path}: missing; loading results without prices`,
      );
      return null;
    }
    warnings.push(`Cannot read ${path}: ${(error as Error).message}`);
    return null;
  }
}

/**
 * Per-model prices (per million tokens) from a manifest's `config.models[]`
 * (or top-level `models[]`); models without a price are left out.
 *
 * @param manifest A parsed `manifest.json`, or null.
 * @returns Model name → `{ input, output }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manifestPrices } from "./mod.ts";
 *
 * const prices = manifestPrices({ config: { models: [
 *   { name: "a", price: { input: 1, output: 2 } },
 *   { name: "b" },
 * ] } });
 * assert.deepEqual([...prices], [["a", { input: 1, output: 2 }]]);
 * ```
 */
export function manifestPrices(
  manifest: Record<string, unknown> | null,
): Map<string, { input: number; output: number }> {
  const prices = new Map<string, { input: number; output: number }>();
  if (!manifest) return prices;
  const config = manifest.config as { models?: unknown } | undefined;
  const models = (config?.models ?? manifest.models) as unknown;
  if (!Array.isArray(models)) return prices;
  for (const m of models) {
    const price = m?.price;
    if (
      typeof m?.name === "string" && typeof price?.input === "number" &&
      typeof price?.output === "number"
    ) {
      prices.set(m.name, { input: price.input, output: price.output });
    }
  }
  return prices;
}

function addCost(
  frame: DataFrame,
  manifest: Record<string, unknown> | null,
): DataFrame {
  const prices = manifestPrices(manifest);
  const needed = ["model", "prompt_tokens", "completion_tokens"];
  if (prices.size === 0 || !needed.every((c) => frame.columns.includes(c))) {
    return frame.withColumns(pl.lit(null).cast(pl.Float64).alias("cost"));
  }
  const table = pl.DataFrame({
    model: [...prices.keys()],
    _price_in: [...prices.values()].map((p) => p.input),
    _price_out: [...prices.values()].map((p) => p.output),
  });
  return frame
    .join(table, { on: "model", how: "left" })
    .withColumns(
      pl.col("prompt_tokens").mul(pl.col("_price_in"))
        .add(pl.col("completion_tokens").mul(pl.col("_price_out")))
        .div(1e6)
        .alias("cost"),
    )
    .drop("_price_in", "_price_out");
}
