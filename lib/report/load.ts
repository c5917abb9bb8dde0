/**
 * Run folders into one Polars frame. `results.jsonl` is the truth; it is
 * read by the fastest of three paths that agrees with it: the Parquet
 * cache of an earlier load (`_parquet_cache.ts`), the CSV copy the store
 * keeps as a sweep goes (`_copy.ts`), or the JSONL itself with the
 * declared row schema (`_scan.ts`, inferring types only when a value does
 * not fit). Each row's cost comes from the manifest's prices (`cost.ts`).
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame, DataType } from "./frame.ts";
import { join, resolve } from "node:path";
import { findBadLines } from "./_jsonl.ts";
import { distinctRuns, resultsEnd } from "../store/mod.ts";
import {
  expandJsonColumn,
  NESTED,
  readSchema,
  scanWithSchema,
  sniffFields,
} from "./_scan.ts";
import { RunFormatError } from "./errors.ts";
import { readCopy } from "./_copy.ts";
import { jsonlStamp, readCache, writeCache } from "./_parquet_cache.ts";
import { addCost } from "./cost.ts";
import { MEMBERSHIP_COLUMNS, ownRows } from "./_membership.ts";
import { RESULT_COLUMNS, type ResultColumn } from "../types.ts";

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
   * Use the faster copies of `results.jsonl`: the CSV copy the store's
   * `ResultsWriter` keeps while it appends (read when it agrees with the
   * JSONL), and a Parquet cache (`.results.cache.parquet`, keyed on the
   * JSONL's size and mtime) written when the whole JSONL had to be parsed.
   * False reads the JSONL itself and writes nothing. @default {true}
   */
  cache?: boolean;
  /**
   * Load only these columns (ResultRow fields or dims names; missing ones
   * are skipped), plus `cost`. Only these are parsed and kept, which is what
   * lets 10 million rows fit in memory; `dims` is then empty unless a dims
   * column is asked for. @default all columns
   */
  columns?: readonly string[];
}

/**
 * Polars types of the scalar ResultRow columns, by name: the compiler
 * checks these names against `RESULT_COLUMNS` (`dims` and `metrics` are
 * spread into columns of their own).
 */
const SCALAR_TYPES: Record<
  Exclude<ResultColumn, (typeof NESTED)[number]>,
  DataType
> = {
  key: pl.Utf8,
  run: pl.Utf8,
  model: pl.Utf8,
  suite: pl.Utf8,
  question_id: pl.Utf8,
  template: pl.Utf8,
  sample: pl.Int64,
  question: pl.Utf8,
  prompt: pl.Utf8,
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
 * Types of the ResultRow columns, in `RESULT_COLUMNS` order; declared so
 * all-null columns keep their type.
 */
export const RESULT_SCHEMA: Record<string, DataType> = Object.fromEntries(
  RESULT_COLUMNS
    .filter((name): name is keyof typeof SCALAR_TYPES => name in SCALAR_TYPES)
    .map((name) => [name, SCALAR_TYPES[name]]),
);

/**
 * Loads one or several run folders (`manifest.json` + `results.jsonl`) into
 * one Polars frame. `results.jsonl` is the source of truth; it is read, in
 * order of speed, from the Parquet cache of an earlier load (while the
 * JSONL is unchanged), from the CSV copy the store's `ResultsWriter` keeps
 * as a sweep goes (checked against the JSONL, plus the JSONL lines written
 * after it), or from the JSONL itself with the declared row schema (types
 * inferred over every line only when a value does not fit it). `dims` and
 * `metrics` become columns from all their keys, so one that first appears
 * late (or only in one suite) still gets a column; a key clashing with a
 * ResultRow column is prefixed `dim_` (`metric_`). A torn last line (a
 * crash mid-append) is dropped with a warning. When the manifest gives
 * `models[].price` ({input, output} per million tokens), a `cost` column
 * holds each row's cost.
 *
 * @param dirs One run folder or several (e.g. the shards of one sweep).
 * @param options Strictness, warnings, caches and columns.
 * @returns The frame, its dims columns, per-run info and warnings.
 * @throws {Deno.errors.NotFound} "Cannot load run ..." when a folder or its results.jsonl is missing.
 * @throws {RunFormatError} When lines other than a torn last one are not
 *   result rows (not JSON, or not an object with a string `key`); it names
 *   the file and every such line.
 * @throws {SyntaxError} When (strict) the last line is torn, or rows do not
 *   have the types of result rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "./mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const row = (model: string, correct: boolean, dims: object) =>
 *   JSON.stringify({ key: `${model}|q`, model, correct, dims, prompt_tokens: 10, completion_tokens: 5 });
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
  const distinct = await distinctRuns(list);
  warnings.push(...distinct.warnings);
  for (const dir of distinct.dirs) {
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
    end = await resultsEnd(results);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(
        `Cannot load run ${dir}: it has no results.jsonl (has the sweep started?)`,
      );
    }
    throw error;
  }
  // The membership rules' columns are read too, then dropped.
  const need = columns === undefined
    ? undefined
    : [...new Set([...columns, ...MEMBERSHIP_COLUMNS])];
  const stamp = cache ? await jsonlStamp(results, end.prefix) : null;
  const cached = stamp ? await readCache(dir, stamp, need) : null;
  const info = (rows: number) => ({
    dir,
    manifest,
    rows,
    torn: end.torn !== null,
  });
  /** The run's own rows (see `_membership.ts`), the columns asked for, costs. */
  const finish = (frame: DataFrame): DataFrame => {
    const own = ownRows(frame, manifest, results);
    if (own.warning !== null) warnings.push(own.warning);
    let out = own.frame;
    if (columns) {
      out = out.select(...columns.filter((c) => out.columns.includes(c)));
    }
    return addCost(out, manifest);
  };
  if (end.torn !== null) {
    const message =
      `Cannot read the last line of ${results}: it is torn (byte ${end.prefix} to ${end.size}, a run stopped mid-write)`;
    if (strict) throw new SyntaxError(message);
    warnings.push(`${message}; dropped it and loaded the complete lines`);
  }
  if (cached) {
    const frame = finish(cached.frame);
    return { frame, info: info(frame.height), dims: cached.dims };
  }
  let path = results;
  let tmp: string | null = null;
  if (end.torn !== null) {
    // Polars cannot be told to stop before a byte offset, so read a truncated copy.
    tmp = await Deno.makeTempFile({ suffix: ".jsonl" });
    await Deno.copyFile(results, tmp);
    await Deno.truncate(tmp, end.prefix);
    path = tmp;
  }
  try {
    const read = end.prefix === 0
      ? { frame: emptyFrame(), dims: [], full: true }
      : await readRows(path, results, dir, end.prefix, need, cache);
    if (stamp && read.full) {
      await writeCache(dir, stamp, read.frame, read.dims);
    }
    const frame = finish(read.frame);
    return { frame, info: info(frame.height), dims: read.dims };
  } finally {
    if (tmp) await Deno.remove(tmp);
  }
}

/**
 * Reads the complete lines of a results file into a frame with dims and
 * metrics as columns: with an explicit schema (fast), or, when some row
 * does not fit the declared types, with types inferred over every line.
 * Lines that are not rows are named in a {@linkcode RunFormatError}.
 *
 * @returns The frame, its dims columns, and whether it holds every column
 * (false when only `columns` were read).
 */
async function readRows(
  path: string,
  shown: string,
  run: string,
  prefix: number,
  columns: readonly string[] | undefined,
  useCopy: boolean,
): Promise<{ frame: DataFrame; dims: string[]; full: boolean }> {
  // Only the fields asked for; dims, metrics and other fields too when a
  // name asked for is not a declared row field (it may be one of theirs).
  // `key` (or `model`) is always read, to find lines that are not rows.
  let fields: Set<string> | undefined;
  if (columns) {
    fields = new Set(columns);
    if (columns.some((c) => !(c in RESULT_SCHEMA) && c !== "cost")) {
      for (const n of [...NESTED, EXTRA]) fields.add(n);
    }
    fields.add(fields.has("key") ? "key" : "model");
  }
  let frame: DataFrame | undefined;
  let fromCopy = false;
  if (useCopy) {
    try {
      const copy = await readCopy(shown, prefix, RESULT_SCHEMA, fields);
      if (copy) {
        frame = copy.frame;
        fromCopy = true;
      }
    } catch {
      // The JSONL after the copy does not fit the schema: read it all below,
      // which names bad lines or infers the types.
    }
  }
  if (frame === undefined) {
    const schema = readSchema(RESULT_SCHEMA, await sniffFields(path, prefix));
    try {
      frame = scanWithSchema(
        path,
        schema,
        fields ? Object.keys(schema).filter((c) => fields.has(c)) : undefined,
      );
    } catch (error) {
      await throwBadLines(path, shown, run, prefix);
      // Every line is a row, but some value does not have its declared
      // type: read the slow way, inferring types over every line.
      frame = scan(path, shown, error);
      if (frame.columns.includes("key") && frame.getColumn("key").nullCount()) {
        await throwBadLines(path, shown, run, prefix);
      }
      frame = withDeclared(frame, fields);
      const dimPairs = structFields(frame, "dims", "dim_");
      frame = unnestStruct(frame, "dims", dimPairs);
      frame = unnestStruct(
        frame,
        "metrics",
        structFields(frame, "metrics", "metric_"),
      );
      return { frame, dims: dimPairs.map(([, to]) => to), full: true };
    }
  }
  const sentinel = frame.columns.includes("key") ? "key" : "model";
  if (frame.getColumn(sentinel).nullCount() > 0) {
    await throwBadLines(path, shown, run, prefix);
  }
  const dims = expandJsonColumn(withDeclared(frame, fields), "dims", "dim_");
  // A suite's per-row metrics become columns the same way (after dims, so
  // a clash takes the "metric_" prefix); so do fields the copy keeps aside.
  const metrics = expandJsonColumn(dims.frame, "metrics", "metric_");
  const extra = expandJsonColumn(metrics.frame, EXTRA, `${EXTRA}_`);
  return {
    frame: extra.frame,
    dims: dims.names,
    full: !fields && !fromCopy,
  };
}

/**
 * The frame with every declared row column (of `fields`, when given) it
 * lacks added as nulls of its type: rows written before a field existed
 * (e.g. `prompt`), read from their JSONL or an older CSV copy, load as
 * rows whose field is null.
 */
function withDeclared(
  frame: DataFrame,
  fields: ReadonlySet<string> | undefined,
): DataFrame {
  const missing = Object.entries(RESULT_SCHEMA).filter(([name]) =>
    !frame.columns.includes(name) && (fields === undefined || fields.has(name))
  );
  if (missing.length === 0) return frame;
  return frame.withColumns(
    ...missing.map(([name, type]) => pl.lit(null).cast(type).alias(name)),
  );
}

/** The copy's column of fields it does not know, as JSON text. */
const EXTRA = "_extra";

/** Throws a {@linkcode RunFormatError} naming every line that is not a row, if any. */
async function throwBadLines(
  path: string,
  shown: string,
  run: string,
  prefix: number,
): Promise<void> {
  const bad = await findBadLines(path, prefix);
  if (bad.length > 0) throw new RunFormatError(shown, run, bad);
}

function scan(path: string, shownPath: string, first: unknown): DataFrame {
  try {
    const frame = pl.scanJson(path, { inferSchemaLength: null }).collectSync();
    // Cast the known columns present in the file to their declared types.
    const casts = Object.entries(RESULT_SCHEMA)
      .filter(([name]) => frame.columns.includes(name))
      .map(([name, type]) => pl.col(name).cast(type));
    return casts.length ? frame.withColumns(...casts) : frame;
  } catch (error) {
    const why = (e: unknown) =>
      String((e as Error).message ?? e).split("\n")[0];
    throw new SyntaxError(
      `Cannot load ${shownPath}: its rows do not have the types of result rows (${
        why(first)
      }; ${why(error)}); check the lines against lib/types.ts ResultRow`,
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

/**
 * A run folder's manifest: null (with a warning) when it has none; a
 * manifest that is there but not a JSON object (a truncated write, an
 * edit) stops the load, since the rows cannot be checked against the run.
 *
 * @throws {SyntaxError} naming the file and what to do.
 */
async function readManifest(
  dir: string,
  warnings: string[],
): Promise<Record<string, unknown> | null> {
  const path = join(dir, "manifest.json");
  let text;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      warnings.push(
        `${path} is missing: its rows are not checked against a run (run id, models, plan) and have no prices`,
      );
      return null;
    }
    throw error;
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(
      `Cannot load run ${dir}: ${path} is not valid JSON (${
        (error as Error).message
      }; a truncated or edited file), so its rows cannot be checked against the run they belong to; restore the manifest.json the sweep wrote`,
    );
  }
  if (
    typeof manifest !== "object" || manifest === null || Array.isArray(manifest)
  ) {
    throw new SyntaxError(
      `Cannot load run ${dir}: ${path} is not a run manifest (a JSON object); restore the manifest.json the sweep wrote`,
    );
  }
  return manifest as Record<string, unknown>;
}
