/**
 * A user's dataset records as questions: the question text, the answer as
 * an exact key of its type, the options of a multiple-choice question, and
 * every other column as a dim (so results break down by `category`, or
 * any column the user has).
 *
 * @module
 */
import { basename, extname } from "node:path";
import { formatRational, parseRational } from "../../math/rational.ts";
import type { Answer, DimValue, Question } from "../../types.ts";
import { type DatasetRecord, QaInputError } from "./dataset.ts";
import type { QaAnswerType, QaParams } from "./params.ts";

/** What a qa question carries besides its text and key. */
export type QaPayload = {
  /** How the answer is judged. */
  type: QaAnswerType;
  /** The answer as the dataset writes it (`440.55`, `B`, a pattern). */
  written: string;
  /** The options of a multiple-choice question, in order (A, B, ...). */
  choices?: string[];
  /** A tolerance for a number. */
  tolerance?: { rel?: number | undefined; abs?: number | undefined };
  /** Compare an exact answer case- and width-sensitively. */
  caseSensitive?: boolean;
};

/** A qa question. */
export type QaQuestion = Question<QaPayload>;

/** Option letters, A to Z. */
const LETTERS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];

/** A cell as text: numbers as written, null and absent as "". */
function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value.trim() : String(value);
}

/**
 * A number as a dataset writes it, as an exact rational: integers,
 * decimals, fractions, a sign, thousands separated by commas, a trailing
 * `%` (kept as written: `12.5%` is 12.5), or null when it is not one.
 *
 * @param written The cell's text.
 * @returns The exact rational (`"8811/20"` for `440.55`), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exactNumber } from "./questions.ts";
 * assert.equal(exactNumber("440.55"), "8811/20");
 * assert.equal(exactNumber("-1,234"), "-1234");
 * assert.equal(exactNumber("3/4"), "3/4");
 * assert.equal(exactNumber("twelve"), null);
 * ```
 */
export function exactNumber(written: string): string | null {
  let s = written.trim().replace(/^\+/, "").replace(/%$/, "").trim();
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replaceAll(",", "");
  if (!/^-?(\d+(\.\d+)?|\.\d+|\d+\s*\/\s*\d+)$/.test(s)) return null;
  try {
    return formatRational(parseRational(s.replace(/\s+/g, "")));
  } catch {
    return null;
  }
}

/** The options of a record, in order, or null for a question without. */
function optionsOf(
  record: DatasetRecord,
  columns: QaParams["columns"],
  shown: string,
): string[] | null {
  const spec = columns.choices;
  if (spec === undefined) return null;
  if (Array.isArray(spec)) return spec.map((c) => text(record.fields[c]));
  const cell = record.fields[spec];
  if (Array.isArray(cell)) return cell.map(text);
  const raw = text(cell);
  try {
    const list = JSON.parse(raw);
    if (Array.isArray(list)) return list.map(text);
  } catch {
    // not JSON: options separated by " | "
  }
  if (raw.includes("|")) return raw.split("|").map((o) => o.trim());
  throw new QaInputError(
    `Cannot load the dataset ${shown} ${record.where}: the "${spec}" column holds ${
      JSON.stringify(raw.slice(0, 40))
    }, not a list of options; write them as a JSON list (["…","…"]), separated by " | ", or one column per option ("choices": ["A","B","C","D"])`,
  );
}

/** The answer type of a dataset: as the params say, else inferred once for all rows. */
function typeOf(
  records: readonly DatasetRecord[],
  params: QaParams,
): QaAnswerType {
  if (params.answer !== undefined) return params.answer;
  if (params.columns.choices !== undefined) return "choice";
  const numbers = records.every((r) =>
    exactNumber(text(r.fields[params.columns.answer])) !== null
  );
  return numbers ? "number" : "exact";
}

/**
 * A metadata cell as a dim: CSV writes every cell as text, so a plain
 * number ("4", "0.5") becomes a number (a numeric dim a chart can draw on
 * an axis); other text is trimmed.
 */
function dimValue(value: string | number | boolean | null): DimValue {
  if (typeof value !== "string") return value;
  const t = value.trim();
  return /^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(t) ? Number(t) : t;
}

/** A choice answer as its letter: the letter (any case), or an option's exact text. */
function choiceLetter(
  written: string,
  options: readonly string[],
): string | null {
  const letter = written.replace(
    /^[(（]?\s*([A-Za-zＡ-Ｚａ-ｚ])\s*[)）.．]?$/,
    "$1",
  )
    .normalize("NFKC").toUpperCase();
  if (letter.length === 1 && LETTERS.indexOf(letter) < options.length) {
    return letter;
  }
  const at = options.findIndex((o) => o === written);
  return at >= 0 && options.indexOf(written, at + 1) < 0 ? LETTERS[at]! : null;
}

/**
 * Turns a dataset's records into questions.
 *
 * @param records The records, in file order.
 * @param source `params`, the suite's params (columns, answer type,
 *   tolerance), and `shown`, the file as the user named it.
 * @returns One question per record.
 * @throws {QaInputError} naming the file, the line and the column, for a
 *   missing question or answer, an answer that is not of its type, a
 *   repeated id, or options that cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qaQuestions } from "./questions.ts";
 * import { parseQaParams, validateQaParams } from "./params.ts";
 * const params = parseQaParams({ dataset: "q.csv" });
 * const [q] = qaQuestions([{ where: "line 2", at: 2, fields: { question: "Price?", answer: "440.55", category: "money" } }], { params, shown: "q.csv" });
 * assert.deepEqual([q!.id, q!.answer, q!.dims], ["qa/q/2", { kind: "rational", value: "8811/20" }, { category: "money", answer_type: "number" }]);
 * ```
 */
export function qaQuestions(
  records: readonly DatasetRecord[],
  { params, shown }: { params: QaParams; shown: string },
): QaQuestion[] {
  // A column named "id" is the row id unless the params name another.
  const columns = params.columns.id === undefined &&
      records.some((r) => "id" in r.fields)
    ? { ...params.columns, id: "id" }
    : params.columns;
  if (records.length === 0) {
    throw new QaInputError(
      `Cannot load the dataset ${shown}: it holds no question; write a header row and one question per row`,
    );
  }
  const present = new Set(records.flatMap((r) => Object.keys(r.fields)));
  for (
    const [role, name] of [
      ["question", columns.question],
      ["answer", columns.answer],
      ...(columns.id === undefined ? [] : [["id", columns.id]]),
    ] as const
  ) {
    if (!present.has(name)) {
      throw new QaInputError(
        `Cannot load the dataset ${shown}: it has no "${name}" column (the ${role}); its columns are ${
          [...present].join(", ")
        }; name the ${role} column in the suite's params: "columns": { "${role}": "<column>" }`,
      );
    }
  }
  const type = typeOf(records, { ...params, columns });
  const used = new Set<string>([
    columns.question,
    columns.answer,
    ...(columns.id === undefined ? [] : [columns.id]),
    ...(columns.choices === undefined
      ? []
      : Array.isArray(columns.choices)
      ? columns.choices
      : [columns.choices]),
  ]);
  const stem = basename(shown, extname(shown));
  const seen = new Map<string, string>();
  return records.map((record) => {
    const fail = (why: string) =>
      new QaInputError(
        `Cannot load the dataset ${shown} ${record.where}: ${why}`,
      );
    const question = text(record.fields[columns.question]);
    if (question === "") {
      throw fail(`the "${columns.question}" column (the question) is empty`);
    }
    const written = text(record.fields[columns.answer]);
    if (written === "") {
      throw fail(`the "${columns.answer}" column (the answer) is empty`);
    }
    const own = columns.id === undefined
      ? String(record.at)
      : text(record.fields[columns.id]);
    if (own === "") throw fail(`the "${columns.id}" column (the id) is empty`);
    const id = `qa/${stem}/${own}`;
    const before = seen.get(id);
    if (before !== undefined) {
      throw fail(
        `the id "${own}" is also on ${before}; give each question its own id`,
      );
    }
    seen.set(id, record.where);
    const payload: QaPayload = { type, written };
    let answer: Answer;
    if (type === "number") {
      const value = exactNumber(written);
      if (value === null) {
        throw fail(
          `the answer ${
            JSON.stringify(written)
          } is not a number (the answer type is "number"); write it as 42, -3.5, 1,234 or 3/4, or set "answer": "exact" in the suite's params`,
        );
      }
      answer = { kind: "rational", value };
      if (params.tolerance !== undefined) payload.tolerance = params.tolerance;
    } else if (type === "choice") {
      const options = optionsOf(record, columns, shown);
      if (options === null || options.length < 2) {
        throw fail(
          `a multiple-choice question needs its options; name them in the params: "columns": { "choices": ["A","B","C","D"] }`,
        );
      }
      const letter = choiceLetter(written, options);
      if (letter === null) {
        throw fail(
          `the answer ${
            JSON.stringify(written)
          } is neither an option letter (A to ${
            LETTERS[options.length - 1]
          }) nor the text of one option`,
        );
      }
      payload.choices = options;
      answer = { kind: "choice", value: letter };
    } else {
      if (type === "regex") {
        try {
          new RegExp(written);
        } catch (error) {
          throw fail(
            `the answer pattern ${
              JSON.stringify(written)
            } is not a regular expression (${(error as Error).message})`,
          );
        }
      }
      payload.caseSensitive = params.caseSensitive;
      answer = { kind: "text", value: written };
    }
    const dims: Record<string, DimValue> = {};
    for (const [name, value] of Object.entries(record.fields)) {
      if (used.has(name)) continue;
      if (
        value === null || typeof value === "string" ||
        typeof value === "number" || typeof value === "boolean"
      ) dims[name] = dimValue(value);
    }
    dims.answer_type = type;
    return { id, suite: "qa", text: question, answer, dims, payload };
  });
}
