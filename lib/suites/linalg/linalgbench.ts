/**
 * Loader for the LinAlg-Bench problem set (Agarwal, Rajbhar, J.,
 * arXiv 2605.16675; CC BY 4.0): CSV files with columns
 * `Problem_ID,Subcat,problem_latex,answer_latex`.
 *
 * Reads both cell layouts (the whole task text, or only the matrices),
 * one or two operands (`A = …, \quad B = …`, `…, \quad x = …`) and every
 * answer form in the files (integers, `A^T` / `A^{T}` and other matrices,
 * `\lambda = …` lists).
 *
 * @module
 */
import { readdir, stat } from "node:fs/promises";
import { EncodingInputError, InputLog } from "../../inputs/mod.ts";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { LinalgProblem } from "./tasks.ts";
import type { Answer } from "../../types.ts";
import { parseAnswer, parseProblem } from "./_linalgbench_parse.ts";

/** One LinAlg-Bench row, parsed. */
export interface LinalgBenchRow {
  /** The row's problem, operands as rational strings. */
  problem: LinalgProblem;
  /** The `problem_latex` cell as published. */
  original: string;
  /** The cell holds the whole task text (instruction and `\boxed{}` request), not only the matrices. */
  fullText: boolean;
  /** The published key (eigenvalues as the 4-decimal strings written). */
  key: Answer;
  /** Decimals the published eigenvalues are rounded to (4), when the key is a multiset. */
  keyDecimals?: number;
  /** The file it came from (base name), when loaded from disk. */
  file?: string;
}

/** The columns a LinAlg-Bench CSV must have. */
const COLUMNS = ["Problem_ID", "Subcat", "problem_latex", "answer_latex"];

interface CsvRecord {
  Problem_ID?: string;
  Subcat?: string;
  problem_latex?: string;
  answer_latex?: string;
}

/**
 * Parses the text of one LinAlg-Bench CSV file.
 *
 * @param csv The file's text.
 * @param file Optional file name recorded on each row.
 * @returns The rows, in file order.
 * @throws {SyntaxError} when the header lacks a column or a cell cannot be parsed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLinalgBenchCsv } from "./linalgbench.ts";
 * const csv = 'Problem_ID,Subcat,problem_latex,answer_latex\n' +
 *   'C_2x2_det_001,determinant,A = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix},\\det(A) = -2\n';
 * const [row] = parseLinalgBenchCsv(csv);
 * assert.deepEqual(row!.problem.A, [["1", "2"], ["3", "4"]]);
 * assert.deepEqual(row!.key, { kind: "rational", value: "-2" });
 * ```
 */
export function parseLinalgBenchCsv(
  csv: string,
  file?: string,
): LinalgBenchRow[] {
  const where = file ? ` of ${file}` : "";
  let records: CsvRecord[];
  try {
    records = parse(csv, {
      columns: (header: string[]) => {
        const missing = COLUMNS.filter((c) => !header.includes(c));
        if (missing.length > 0) {
          throw new SyntaxError(
            `Cannot parse the LinAlg-Bench CSV${where}: its header (line 1) lacks ${
              missing.join(", ")
            }; expected the columns ${COLUMNS.join(",")}`,
          );
        }
        return header;
      },
      skip_empty_lines: true,
      bom: true,
    }) as CsvRecord[];
  } catch (error) {
    if (error instanceof SyntaxError) throw error;
    // csv-parse's own errors ("Invalid Opening Quote: ... at line 1").
    throw new SyntaxError(
      `Cannot parse ${file ?? "the text"} as CSV: ${
        (error as Error).message
      }; expected a LinAlg-Bench CSV with the columns ${COLUMNS.join(",")}`,
    );
  }
  return records.map((r, i) => {
    const id = r.Problem_ID, subcat = r.Subcat;
    const problem = r.problem_latex, answer = r.answer_latex;
    if (!id || !subcat || problem === undefined || answer === undefined) {
      throw new SyntaxError(
        `Cannot parse LinAlg-Bench row ${
          i + 2
        }${where}: a cell is empty; expected columns ${COLUMNS.join(",")}`,
      );
    }
    let parsed, key;
    try {
      parsed = parseProblem(id, subcat, problem);
      key = parseAnswer(id, parsed.task, answer);
    } catch (error) {
      throw new SyntaxError(
        `${(error as Error).message} (LinAlg-Bench row ${
          i + 2
        }${where}); fix that row (every matrix row needs the same number of entries) or remove it`,
      );
    }
    const row: LinalgBenchRow = {
      problem: parsed,
      original: problem,
      fullText: /\\boxed/.test(problem),
      key,
    };
    if (key.kind === "multiset") row.keyDecimals = 4;
    if (file !== undefined) row.file = file;
    return row;
  });
}

/**
 * Loads LinAlg-Bench rows from a CSV file, or from every `*.csv` in a
 * folder (sorted by name).
 *
 * @param path A file or folder.
 * @param inputs The log the files are read through. @default a fresh log
 * @returns The rows.
 * @throws {Error} "Cannot load LinAlg-Bench: …" when the path cannot be read or holds no CSV.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLinalgBench } from "./linalgbench.ts";
 * const rows = await loadLinalgBench("data/linalgbench/linalg_bench_4x4.csv");
 * assert.equal(rows.length, 220);
 * ```
 */
export async function loadLinalgBench(
  path: string,
  inputs: InputLog = new InputLog(),
): Promise<LinalgBenchRow[]> {
  let files: string[];
  try {
    const info = await stat(path);
    files = info.isDirectory()
      ? (await readdir(path)).filter((f) => f.endsWith(".csv")).sort().map((
        f,
      ) => join(path, f))
      : [path];
  } catch (error) {
    throw new Error(
      `Cannot load LinAlg-Bench: ${path}: ${
        (error as { code?: string }).code === "ENOENT"
          ? "no such file or folder"
          : (error as Error).message
      }; give a LinAlg-Bench CSV file or a folder of them`,
    );
  }
  if (files.length === 0) {
    throw new Error(
      `Cannot load LinAlg-Bench: no .csv file in ${path}; give a LinAlg-Bench CSV file or a folder of them`,
    );
  }
  const rows: LinalgBenchRow[] = [];
  for (const file of files) {
    let text;
    try {
      // Strict (UTF-8, or GBK/GB18030 detected), recorded by content.
      text = await inputs.readText(file, {
        legacyChinese: true,
        what: "the LinAlg-Bench CSV",
      });
    } catch (error) {
      if (error instanceof EncodingInputError) throw error;
      throw new Error(
        `Cannot load LinAlg-Bench: ${file}: ${
          (error as { code?: string }).code ?? (error as Error).message
        }; give a readable LinAlg-Bench CSV file`,
      );
    }
    rows.push(...parseLinalgBenchCsv(text, file.split(/[\\/]/).pop()!));
  }
  return rows;
}
