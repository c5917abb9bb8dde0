/**
 * Readers for the three C-Eval layouts people download: the official zip
 * (CSV), the Hugging Face dataset (parquet) and per-subject JSON files.
 * Each returns raw rows; `_record.ts` checks them.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { parse } from "csv-parse/sync";
import type { InputLog } from "../../inputs/mod.ts";
import { join } from "node:path";
import type { CevalSplit } from "./_record.ts";
import { importLazily } from "../../lazy.ts";

type Polars = typeof import("nodejs-polars");

/** A C-Eval file layout. */
export type CevalLayout = "csv" | "parquet" | "json";

/** Raw rows of one file with their 1-based data row numbers. */
export interface RawFile {
  file: string;
  /**
   * The file's column names (CSV header, parquet schema), or null where
   * records carry their own fields (JSON) or a CSV file is empty.
   */
  columns: string[] | null;
  rows: Record<string, unknown>[];
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  } catch {
    return [];
  }
  return out.sort();
}

/** Subject keys with a file for `split`, per layout (sorted). */
export async function discoverSubjects(
  root: string,
  layout: CevalLayout,
  split: CevalSplit,
): Promise<string[]> {
  if (layout === "csv") {
    const suffix = `_${split}.csv`;
    return (await names(join(root, split)))
      .filter((n) => n.endsWith(suffix))
      .map((n) => n.slice(0, -suffix.length));
  }
  const out: string[] = [];
  for (const name of await names(root)) {
    if (!(await isDir(join(root, name)))) continue;
    if ((await filesFor(root, layout, name, split)).length > 0) out.push(name);
  }
  return out;
}

/** Which layout `root` holds, looking for files of `split`. */
export async function detectLayout(
  root: string,
  split: CevalSplit,
): Promise<CevalLayout | null> {
  for (const layout of ["csv", "parquet", "json"] as const) {
    if ((await discoverSubjects(root, layout, split)).length > 0) return layout;
  }
  return null;
}

/** The files holding one subject's split (parquet may be sharded). */
export async function filesFor(
  root: string,
  layout: CevalLayout,
  subject: string,
  split: CevalSplit,
): Promise<string[]> {
  if (layout === "csv") {
    const file = join(root, split, `${subject}_${split}.csv`);
    return (await Deno.stat(file).then(() => true, () => false)) ? [file] : [];
  }
  const dir = join(root, subject);
  if (layout === "json") {
    return (await names(dir)).filter((n) => n === `${split}.json`)
      .map((n) => join(dir, n));
  }
  // Hugging Face: `<subject>/<split>-00000-of-00001.parquet` (or `<split>.parquet`).
  return (await names(dir))
    .filter((n) =>
      n.endsWith(".parquet") && (n === `${split}.parquet` ||
        n.startsWith(`${split}-`))
    )
    .map((n) => join(dir, n));
}

/** Reads one file of a layout into raw rows. */
export async function readRaw(
  file: string,
  layout: CevalLayout,
  inputs: InputLog,
): Promise<RawFile> {
  if (layout === "csv") {
    // csv-parse handles quoted commas and line breaks; the log decodes
    // strictly (UTF-8 with or without a BOM, or GBK/GB18030 detected).
    let columns: string[] | null = null;
    const text = await inputs.readText(file, {
      legacyChinese: true,
      what: "the C-Eval CSV",
    });
    const rows = parse(text, {
      bom: true,
      columns: (header: string[]) => (columns = header),
      skip_empty_lines: true,
      relax_column_count: true,
    }) as Record<string, unknown>[];
    return { file, columns, rows };
  }
  if (layout === "parquet") {
    // Polars is a 110 MB native addon: load it only for parquet, so that
    // importing the suite registry stays light and needs no --allow-ffi
    // (lazily: a literal import would be prepared with the suite).
    const { default: pl } = await importLazily<Polars>("nodejs-polars");
    const frame = pl.readParquet(Buffer.from(await inputs.readBytes(file)));
    return { file, columns: frame.columns, rows: frame.toRecords() };
  }
  const json: unknown = JSON.parse(
    await inputs.readText(file, { what: "the C-Eval JSON" }),
  );
  const list = Array.isArray(json) ? json : (json as { data?: unknown })?.data;
  if (!Array.isArray(list)) {
    throw new SyntaxError(
      `Cannot load C-Eval: ${file} is not a JSON array of records; expected [{"id", "question", "choices": {"A", "B", "C", "D"}, "answer"}, ...]`,
    );
  }
  const rows = list.map((item): Record<string, unknown> => {
    if (typeof item !== "object" || item === null) return {};
    const { choices, ...rest } = item as Record<string, unknown>;
    const opts = typeof choices === "object" && choices !== null
      ? choices as Record<string, unknown>
      : {};
    return { ...rest, A: opts.A, B: opts.B, C: opts.C, D: opts.D };
  });
  return { file, columns: null, rows };
}
