/**
 * The fast read of `results.jsonl` into Polars: an explicit schema, so
 * Polars parses each line once without inferring types over the whole file
 * (inference was most of the first load's time), with the `dims` and
 * `metrics` objects read as JSON text and turned into columns from their
 * distinct values (a few hundred texts, not a million objects).
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame, DataType } from "./frame.ts";
import { lineAfter, lineBefore } from "../store/mod.ts";

/** Row fields read as JSON text, then expanded into columns. */
export const NESTED = ["dims", "metrics"] as const;

/**
 * The keys of the first and the last complete line, with a sample value
 * each: fields beyond the known ones (a newer row format) get a column too.
 * Lines that do not parse give nothing (the read itself will report them).
 *
 * @param path The JSONL file.
 * @param end Length of its complete-lines prefix.
 * @returns Field name → a value seen for it.
 */
export async function sniffFields(
  path: string,
  end: number,
): Promise<Map<string, unknown>> {
  const fields = new Map<string, unknown>();
  if (end === 0) return fields;
  using file = await Deno.open(path, { read: true });
  const take = (text: string) => {
    try {
      const value = JSON.parse(text);
      if (typeof value !== "object" || value === null) return;
      for (const [k, v] of Object.entries(value)) {
        if (!fields.has(k) || fields.get(k) === null) fields.set(k, v);
      }
    } catch {
      // Not a row: the read reports it with its line number.
    }
  };
  const decoder = new TextDecoder();
  take(decoder.decode((await lineAfter(file, 0, { end })).bytes));
  // Last line: skip trailing newlines, then read back to the one before.
  let stop = end;
  while (stop > 0) {
    await file.seek(stop - 1, Deno.SeekMode.Start);
    const one = new Uint8Array(1);
    if ((await file.read(one)) !== 1 || one[0] !== 0x0a) break;
    stop--;
  }
  take(decoder.decode((await lineBefore(file, stop)).bytes));
  return fields;
}

/**
 * The schema to read with: every known row field, nested objects as text,
 * and any other field seen in `sniffed` typed by its sample value.
 *
 * @param known Declared row field types.
 * @param sniffed Fields seen in the file's first and last lines.
 * @returns The schema in file field order where known.
 */
export function readSchema(
  known: Record<string, DataType>,
  sniffed: Map<string, unknown>,
): Record<string, DataType> {
  const schema: Record<string, DataType> = {};
  const add = (name: string, sample: unknown) => {
    if (name in schema) return;
    if ((NESTED as readonly string[]).includes(name)) schema[name] = pl.Utf8;
    else if (name in known) schema[name] = known[name] as DataType;
    else if (typeof sample === "number") schema[name] = pl.Float64;
    else if (typeof sample === "boolean") schema[name] = pl.Bool;
    else schema[name] = pl.Utf8; // strings; objects and arrays as JSON text
  };
  for (const [name, sample] of sniffed) add(name, sample);
  for (const name of Object.keys(known)) add(name, null);
  for (const name of NESTED) add(name, null);
  return schema;
}

/**
 * Reads the JSONL with the given schema (only `columns` of it when given).
 *
 * @throws Polars' own error for a line it cannot read with this schema.
 */
export function scanWithSchema(
  path: string,
  schema: Record<string, DataType>,
  columns?: readonly string[],
): DataFrame {
  const lazy = pl.scanJson(path, { schema } as never);
  return columns ? lazy.select(...columns).collectSync() : lazy.collectSync();
}

/**
 * Replaces a column of JSON object texts (`dims`, `metrics`) by one column
 * per key, in the column's place: keys in order of first appearance, a
 * key clashing with a taken name gets `prefix`. Types follow the values:
 * all integers Int64, numbers Float64, booleans Bool, strings Utf8, only
 * nulls Null, a mix Utf8 (as Polars' own JSON inference does). Parsing runs
 * once per distinct text, and a join puts the values on every row.
 *
 * @param frame The frame holding `column` as text.
 * @param column The column to expand.
 * @param prefix Prefix for names already taken (`dim_`, `metric_`).
 * @returns The frame with the column expanded, and the new column names.
 */
export function expandJsonColumn(
  frame: DataFrame,
  column: string,
  prefix: string,
): { frame: DataFrame; names: string[] } {
  if (!frame.columns.includes(column)) return { frame, names: [] };
  const texts = (frame.getColumn(column).unique(true).toArray() as unknown[])
    .filter((t): t is string => typeof t === "string");
  const keys: string[] = [];
  const seen = new Set<string>();
  const objects = texts.map((text) => {
    const value = JSON.parse(text);
    const obj = typeof value === "object" && value !== null &&
        !Array.isArray(value)
      ? value as Record<string, unknown>
      : {};
    for (const k of Object.keys(obj)) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
    return obj;
  });
  if (keys.length === 0) return { frame: frame.drop(column), names: [] };
  const taken = new Set(frame.columns);
  const names = keys.map((k) => taken.has(k) ? `${prefix}${k}` : k);
  let lookup = pl.DataFrame({ [column]: pl.Series(column, texts, pl.Utf8) });
  const nulls: string[] = [];
  keys.forEach((key, i) => {
    const name = names[i] as string;
    const values = objects.map((o) => o[key] ?? null);
    const series = typedSeries(name, values);
    if (series === null) nulls.push(name);
    else lookup = lookup.withColumns(series);
  });
  if (nulls.length > 0) {
    // Polars cannot build a Null-typed Series from JS; a literal can.
    lookup = lookup.withColumns(...nulls.map((n) => pl.lit(null).alias(n)));
  }
  // Join the one column only (a join of the whole frame would copy every
  // text column), then put the new columns in its place; a left join keeps
  // the left order.
  const values = frame.select(column)
    .join(lookup, { on: column, how: "left" })
    .drop(column);
  const order = frame.columns.flatMap((c) => c === column ? names : [c]);
  return { frame: frame.drop(column).hstack(values).select(...order), names };
}

/** A Series typed like Polars' JSON inference would; null for all-null. */
function typedSeries(name: string, values: unknown[]): pl.Series | null {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return null;
  if (present.every((v) => typeof v === "boolean")) {
    return pl.Series(name, values, pl.Bool);
  }
  if (present.every((v) => typeof v === "number")) {
    const ints = present.every((v) => Number.isInteger(v));
    return pl.Series(name, values, ints ? pl.Int64 : pl.Float64);
  }
  return pl.Series(
    name,
    values.map((v) =>
      v === null
        ? null
        : typeof v === "string"
        ? v
        : typeof v === "object"
        ? JSON.stringify(v)
        : String(v)
    ),
    pl.Utf8,
  );
}
