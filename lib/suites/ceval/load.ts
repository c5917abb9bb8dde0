/**
 * `loadCeval`: C-Eval questions from whichever layout a user downloaded.
 *
 * @module
 */
import {
  type CevalLayout,
  detectLayout,
  discoverSubjects,
  filesFor,
  readRaw,
} from "./_layouts.ts";
import { InputLog } from "../../inputs/mod.ts";
import {
  type CevalRecord,
  type CevalSplit,
  checkColumns,
  toRecord,
} from "./_record.ts";
import { CEVAL_SUBJECTS, cevalSubject } from "./subjects.ts";

export type { CevalLayout } from "./_layouts.ts";
export { CEVAL_LETTERS } from "./_record.ts";
export type { CevalRecord, CevalSplit } from "./_record.ts";

/** Options for {@linkcode loadCeval}. */
export interface LoadCevalOptions {
  /** The split to read. */
  split: CevalSplit;
  /** Subject keys to read, in this order. @default every subject found under root, in table order */
  subjects?: readonly string[];
  /** The layout; `"auto"` looks for CSV, then parquet, then JSON. @default {"auto"} */
  layout?: CevalLayout | "auto";
  /**
   * The log the files are read through: CSVs decoded strictly (UTF-8, or
   * GBK/GB18030 detected, as Chinese downloads often are), every file
   * recorded by content. @default a fresh log
   */
  inputs?: InputLog;
}

/**
 * Loads one split of C-Eval from a folder in any of its layouts:
 * - official zip: `<root>/<split>/<subject>_<split>.csv` with columns
 *   `id,question,A,B,C,D[,answer][,explanation]` (UTF-8, with or without
 *   BOM, or GBK/GB18030; quoted fields may hold commas and line breaks);
 * - Hugging Face `ceval/ceval-exam`:
 *   `<root>/<subject>/<split>-00000-of-00001.parquet`, same columns;
 * - per-subject JSON: `<root>/<subject>/<split>.json`, an array of
 *   `{id, question, choices: {A, B, C, D}, answer?, explanation?}`.
 *
 * Rows keep the file's order (dev examples stay in their official order).
 * Test-split rows may have no answer (`answer: null`).
 *
 * @param root The folder holding the layout.
 * @param options Split, subjects and layout.
 * @returns The records, subject by subject.
 * @throws {SyntaxError} for a CSV or parquet file missing a column, naming
 *   the file, the column and the columns it has; for a malformed row,
 *   naming the file and row.
 * @throws {RangeError} for an unknown subject key or a subject without a file.
 * @throws {EncodingInputError} for a file that is neither UTF-8 nor
 *   GBK/GB18030, naming the line and byte.
 * @throws {Deno.errors.NotFound} when no layout is found under root.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCeval } from "./load.ts";
 * const val = await loadCeval("data/ceval", { split: "val", subjects: ["high_school_mathematics"] });
 * assert.ok(val.length > 0);
 * assert.equal(val[0]!.subject.hard, true);
 * assert.match(val[0]!.answer ?? "", /^[ABCD]$/);
 * ```
 */
export async function loadCeval(
  root: string,
  options: LoadCevalOptions,
): Promise<CevalRecord[]> {
  const {
    split,
    subjects,
    layout: wanted = "auto",
    inputs = new InputLog(),
  } = options;
  const layout = wanted === "auto" ? await detectLayout(root, split) : wanted;
  if (layout === null) {
    const kind = await Deno.stat(root).then(
      (info) => info.isDirectory ? "folder" : "file",
      () => "missing",
    );
    if (kind !== "folder") {
      throw new Deno.errors.NotFound(
        `Cannot load C-Eval: the root ${root} ${
          kind === "file" ? "is a file, not a folder" : "does not exist"
        }; set "root" to the folder of a C-Eval download (it holds ${split}/<subject>_${split}.csv or <subject>/ folders), or leave it out for the bundled data/ceval`,
      );
    }
    throw new Deno.errors.NotFound(
      `Cannot load C-Eval: no ${split} files under ${root}; expected ${root}/${split}/<subject>_${split}.csv, ${root}/<subject>/${split}-*.parquet or ${root}/<subject>/${split}.json`,
    );
  }
  let keys: string[];
  if (subjects === undefined) {
    const found = new Set(await discoverSubjects(root, layout, split));
    const unknown = [...found].filter((k) => cevalSubject(k) === undefined);
    if (unknown.length > 0) {
      throw new RangeError(
        `Cannot load C-Eval: unknown subject file(s) ${
          unknown.join(", ")
        } under ${root}; subject keys must be among the 52 C-Eval subjects`,
      );
    }
    keys = CEVAL_SUBJECTS.map((s) => s.key).filter((k) => found.has(k));
  } else keys = [...subjects];

  const out: CevalRecord[] = [];
  for (const key of keys) {
    const subject = cevalSubject(key);
    if (subject === undefined) {
      throw new RangeError(
        `Cannot load C-Eval: unknown subject "${key}"; use one of the 52 keys such as advanced_mathematics (see CEVAL_SUBJECTS)`,
      );
    }
    const files = await filesFor(root, layout, key, split);
    if (files.length === 0) {
      throw new RangeError(
        `Cannot load C-Eval: no ${layout} file for subject "${key}" split "${split}" under ${root}`,
      );
    }
    for (const file of files) {
      const raw = await readRaw(file, layout, inputs);
      if (raw.columns !== null) checkColumns(raw.columns, { split, file });
      raw.rows.forEach((row, i) =>
        out.push(toRecord(row, { subject, split, file, row: i + 1 }))
      );
    }
  }
  return out;
}
