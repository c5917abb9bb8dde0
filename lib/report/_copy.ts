/**
 * Reading a run's rows from the CSV copy that `ResultsWriter` keeps beside
 * `results.jsonl` (Polars reads CSV several times faster than JSON lines),
 * plus the JSONL lines the copy does not hold yet.
 *
 * @module
 */
import pl from "nodejs-polars";
import { dirname, join } from "node:path";
import type { DataFrame, DataType } from "./frame.ts";
import {
  RESULTS_COPY_FILE,
  type ResultsCopyIndex,
  verifiedCopy,
} from "../store/mod.ts";
import { readSchema, scanWithSchema, sniffFields } from "./_scan.ts";

/** What {@linkcode readCopy} read: the copy's rows and the JSONL's after them. */
export interface CopyRead {
  /** Rows with dims, metrics and `_extra` still as JSON text. */
  frame: DataFrame;
  /** Rows taken from the copy (the rest came from the JSONL tail). */
  fromCopy: number;
}

/**
 * Reads the copy when it agrees with `results.jsonl`, then the JSONL's lines
 * after what it covers (up to `prefix`, the complete lines).
 *
 * @param results The `results.jsonl` path.
 * @param prefix Bytes of complete lines in it.
 * @param known Declared row field types.
 * @param fields Fields to read (all when undefined).
 * @returns The rows, or null when there is no usable copy.
 * @throws Polars' error when the JSONL tail cannot be read with the schema.
 */
export async function readCopy(
  results: string,
  prefix: number,
  known: Record<string, DataType>,
  fields: ReadonlySet<string> | undefined,
): Promise<CopyRead | null> {
  const index = await verifiedCopy(results);
  if (index === null || index.jsonlEnd > prefix || index.rows === 0) {
    return null;
  }
  const csv = join(dirname(results), RESULTS_COPY_FILE);
  const temps: string[] = [];
  try {
    let path = csv;
    if ((await Deno.stat(csv)).size > index.csvEnd) {
      // Rows being appended past the index (a live run): Polars cannot be
      // told to stop at a byte, so read a cut copy.
      path = await Deno.makeTempFile({ suffix: ".csv" });
      temps.push(path);
      await Deno.copyFile(csv, path);
      await Deno.truncate(path, index.csvEnd);
    }
    const head = readCsv(path, index, known, fields);
    if (head === null) return null;
    if (index.jsonlEnd === prefix) {
      return { frame: head, fromCopy: head.height };
    }
    const tail = await Deno.makeTempFile({ suffix: ".jsonl" });
    temps.push(tail);
    await copyRange(results, tail, index.jsonlEnd, prefix);
    const schema = readSchema(
      known,
      await sniffFields(tail, prefix - index.jsonlEnd),
    );
    const wanted = fields
      ? Object.keys(schema).filter((c) => fields.has(c))
      : undefined;
    const rest = scanWithSchema(tail, schema, wanted);
    return {
      frame: pl.concat([head, rest], { how: "diagonalRelaxed" }),
      fromCopy: head.height,
    };
  } finally {
    for (const t of temps) await Deno.remove(t).catch(() => {});
  }
}

function readCsv(
  path: string,
  index: ResultsCopyIndex,
  known: Record<string, DataType>,
  fields: ReadonlySet<string> | undefined,
): DataFrame | null {
  const schema: Record<string, DataType> = {};
  for (const c of index.columns) schema[c] = known[c] ?? pl.Utf8;
  try {
    let lazy = pl.scanCSV(path, { schema, nRows: index.rows } as never);
    if (fields) {
      lazy = lazy.select(...index.columns.filter((c) => fields.has(c)));
    }
    const frame = lazy.collectSync();
    return frame.height === index.rows ? frame : null;
  } catch {
    return null; // An unreadable copy: the JSONL is the truth.
  }
}

/** Copies bytes [from, to) of a file into another. */
async function copyRange(
  source: string,
  target: string,
  from: number,
  to: number,
): Promise<void> {
  using src = await Deno.open(source, { read: true });
  using dst = await Deno.open(target, { write: true, truncate: true });
  await src.seek(from, Deno.SeekMode.Start);
  const buf = new Uint8Array(1 << 20);
  let left = to - from;
  while (left > 0) {
    const n = await src.read(buf.subarray(0, Math.min(buf.length, left)));
    if (n === null) break;
    let off = 0;
    while (off < n) off += await dst.write(buf.subarray(off, n));
    left -= n;
  }
}
