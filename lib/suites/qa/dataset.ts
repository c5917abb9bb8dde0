/**
 * Reading a user's dataset of questions: CSV (a header row), JSON Lines,
 * JSON (a list of records, or `{"data": [...]}` / `{"rows": [...]}` as
 * Hugging Face exports write them) or parquet, into records that keep the
 * line (or row) each came from, for messages.
 *
 * @module
 */
import { parse } from "csv-parse/sync";
import { Buffer } from "node:buffer";
import { extname } from "node:path";
import { importLazily } from "../../lazy.ts";

/** One record of a dataset, with where it is. */
export interface DatasetRecord {
  /** Where it is, for messages: `line 7` (CSV, JSONL) or `row 7` (JSON, parquet). */
  where: string;
  /** 1-based position (line or row). */
  at: number;
  /** The record's fields. */
  fields: Record<string, unknown>;
}

/** A bad dataset (exit 2): the message names the file, line and field. */
export class QaInputError extends Error {
  /** Always `"QaInputError"`. */
  override name = "QaInputError";
}

/** The formats the suite reads. */
export type DatasetFormat = "csv" | "jsonl" | "json" | "parquet";

/**
 * A dataset file's format from its extension (`.csv`, `.jsonl`/`.ndjson`,
 * `.json`, `.parquet`), or null.
 *
 * @param path The file.
 * @returns The format, or null for another extension.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatOf } from "./dataset.ts";
 * assert.equal(formatOf("q.CSV"), "csv");
 * assert.equal(formatOf("train.ndjson"), "jsonl");
 * assert.equal(formatOf("q.txt"), null);
 * ```
 */
export function formatOf(path: string): DatasetFormat | null {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") return "csv";
  if (ext === ".jsonl" || ext === ".ndjson") return "jsonl";
  if (ext === ".json") return "json";
  if (ext === ".parquet") return "parquet";
  return null;
}

/** What {@linkcode readDataset} reads. */
export interface ReadDatasetOptions {
  /** The file, as the user named it (for messages). */
  shown: string;
  /** Its format. */
  format: DatasetFormat;
  /** Reads the file as text (strictly decoded). */
  readText(): Promise<string>;
  /** Reads the file's bytes (parquet). */
  readBytes(): Promise<Uint8Array>;
}

/**
 * Reads every record of a dataset, in file order.
 *
 * @param options The file, its format and how to read it.
 * @returns The records.
 * @throws {QaInputError} for a line that is not JSON or not an object, a
 *   CSV that cannot be parsed, JSON that is not a list of records, naming
 *   the file and the line or row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDataset } from "./dataset.ts";
 * const text = "question,answer\r\nWhat is 2+2?,4\r\n";
 * const records = await readDataset({ shown: "q.csv", format: "csv", readText: () => Promise.resolve(text), readBytes: () => Promise.reject() });
 * assert.deepEqual(records, [{ where: "line 2", at: 2, fields: { question: "What is 2+2?", answer: "4" } }]);
 * await assert.rejects(
 *   readDataset({ shown: "q.jsonl", format: "jsonl", readText: () => Promise.resolve('{"a":1}\n{oops\n'), readBytes: () => Promise.reject() }),
 *   /q\.jsonl line 2: not JSON/,
 * );
 * ```
 */
export async function readDataset(
  options: ReadDatasetOptions,
): Promise<DatasetRecord[]> {
  const { shown, format } = options;
  switch (format) {
    case "csv":
      return csvRecords(await options.readText(), shown);
    case "jsonl":
      return jsonlRecords(await options.readText(), shown);
    case "json":
      return jsonRecords(await options.readText(), shown);
    case "parquet":
      return await parquetRecords(await options.readBytes(), shown);
  }
}

function csvRecords(text: string, shown: string): DatasetRecord[] {
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parse(text.replace(/^\uFEFF/, ""), {
      columns: true,
      skip_empty_lines: true,
      info: true,
      bom: true,
    });
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw new QaInputError(
      `Cannot read the dataset ${shown}${
        e.lines === undefined ? "" : ` line ${e.lines}`
      }: not valid CSV (${e.message}); it needs a header row (question,answer,...) and one question per row`,
    );
  }
  return rows.map(({ record, info }) => ({
    where: `line ${info.lines}`,
    at: info.lines,
    fields: record,
  }));
}

function jsonlRecords(text: string, shown: string): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new QaInputError(
        `Cannot read the dataset ${shown} line ${i + 1}: not JSON (${
          (error as Error).message
        }); write one JSON object per line`,
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new QaInputError(
        `Cannot read the dataset ${shown} line ${
          i + 1
        }: not a JSON object; write one object per line, such as {"question": "...", "answer": "..."}`,
      );
    }
    out.push({
      where: `line ${i + 1}`,
      at: i + 1,
      fields: value as Record<string, unknown>,
    });
  });
  return out;
}

function jsonRecords(text: string, shown: string): DatasetRecord[] {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    // A file of one object per line named .json: read it as JSON Lines.
    if (/^\s*\{/.test(text) && text.trim().includes("\n")) {
      return jsonlRecords(text, shown);
    }
    throw new QaInputError(
      `Cannot read the dataset ${shown}: not JSON (${
        (error as Error).message
      }); give a list of records, or JSON Lines in a .jsonl file`,
    );
  }
  const list = Array.isArray(value)
    ? value
    : typeof value === "object" && value !== null
    ? (value as { data?: unknown; rows?: unknown }).data ??
      (value as { rows?: unknown }).rows
    : undefined;
  if (!Array.isArray(list)) {
    throw new QaInputError(
      `Cannot read the dataset ${shown}: expected a JSON list of records (or {"data": [...]}), got ${
        Array.isArray(value) ? "a list" : typeof value
      }`,
    );
  }
  return list.map((item, i) => {
    // Hugging Face's datasets-server wraps each record as {"row": {...}}.
    const fields = typeof item === "object" && item !== null &&
        !Array.isArray(item) && "row" in item &&
        typeof (item as { row: unknown }).row === "object"
      ? (item as { row: Record<string, unknown> }).row
      : item;
    if (
      typeof fields !== "object" || fields === null || Array.isArray(fields)
    ) {
      throw new QaInputError(
        `Cannot read the dataset ${shown} row ${i + 1}: not an object`,
      );
    }
    return {
      where: `row ${i + 1}`,
      at: i + 1,
      fields: fields as Record<string, unknown>,
    };
  });
}

type Polars = typeof import("nodejs-polars");

async function parquetRecords(
  bytes: Uint8Array,
  shown: string,
): Promise<DatasetRecord[]> {
  const { default: pl } = await importLazily<Polars>("nodejs-polars");
  let records: Record<string, unknown>[];
  try {
    records = pl.readParquet(Buffer.from(bytes)).toRecords();
  } catch (error) {
    throw new QaInputError(
      `Cannot read the dataset ${shown}: not a parquet file (${
        String((error as Error).message).split("\n")[0]
      })`,
    );
  }
  return records.map((fields, i) => ({
    where: `row ${i + 1}`,
    at: i + 1,
    fields,
  }));
}
