/**
 * Turns one raw row of any C-Eval layout into a checked record.
 *
 * @module
 */
import type { CevalSubject } from "./subjects.ts";

/** The four option letters of C-Eval. */
export const CEVAL_LETTERS = ["A", "B", "C", "D"] as const;

/** One C-Eval split. */
export type CevalSplit = "dev" | "val" | "test";

/** One checked C-Eval question, as read from a file. */
export interface CevalRecord {
  /** The subject's facts (key, names, category, level, HARD flag). */
  subject: CevalSubject;
  /** The split the file belongs to (dev, val or test). */
  split: CevalSplit;
  /** The row's `id` column (the row index when the file has none). */
  id: string;
  /** The question text. */
  question: string;
  /** Option texts by letter. */
  choices: { A: string; B: string; C: string; D: string };
  /** The key letter, or null when the file withholds it (test split). */
  answer: string | null;
  /** The worked explanation (dev split), or null. */
  explanation: string | null;
  /** Where it came from: file path and 1-based data row. */
  source: { file: string; row: number };
}

function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "bigint") {
    return String(value);
  }
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Checks a file's column names before its rows, so that a missing column is
 * reported once, by name, instead of as an empty field on row 1.
 *
 * @throws {SyntaxError} naming the file, the missing column(s), the columns
 *   found and what to do; `answer` is required outside the `test` split.
 */
export function checkColumns(
  columns: readonly string[],
  where: { split: CevalSplit; file: string },
): void {
  const { split, file } = where;
  const required = ["question", ...CEVAL_LETTERS];
  if (split !== "test") required.push("answer");
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length === 0) return;
  const names = missing.map((c) => `"${c}"`).join(", ");
  const plural = missing.length > 1;
  const found = columns.length > 0 ? columns.join(",") : "nothing";
  throw new SyntaxError(
    `Cannot load C-Eval: ${file} has no ${names} column${
      plural ? "s" : ""
    } (its header: ${found}); add ${
      plural ? "them" : "it"
    } so the header reads id,question,A,B,C,D,answer[,explanation] (names are case-sensitive; only the test split may leave out answer)`,
  );
}

/**
 * Checks one raw row (`{id, question, A, B, C, D, answer?, explanation?}`).
 *
 * @throws {SyntaxError} naming the file and row for a missing question or
 *   option, or an answer outside A–D (or a missing answer outside `test`).
 */
export function toRecord(
  raw: Record<string, unknown>,
  where: {
    subject: CevalSubject;
    split: CevalSplit;
    file: string;
    row: number;
  },
): CevalRecord {
  const { subject, split, file, row } = where;
  const fail = (detail: string): never => {
    throw new SyntaxError(
      `Cannot load C-Eval: ${file} row ${row}: ${detail}; fix or remove that row (columns: id,question,A,B,C,D,answer[,explanation])`,
    );
  };
  const question = text(raw.question);
  if (question === "") fail("the question is empty");
  const choices = { A: "", B: "", C: "", D: "" };
  for (const letter of CEVAL_LETTERS) {
    const option = text(raw[letter]);
    if (option === "") fail(`option ${letter} is missing or empty`);
    choices[letter] = option;
  }
  const rawAnswer = text(raw.answer).toUpperCase();
  let answer: string | null = null;
  if (rawAnswer !== "") {
    if (!(CEVAL_LETTERS as readonly string[]).includes(rawAnswer)) {
      fail(`answer "${text(raw.answer)}" is not one of A, B, C, D`);
    }
    answer = rawAnswer;
  } else if (split !== "test") {
    fail(`the answer is missing (only the test split may withhold answers)`);
  }
  const explanation = text(raw.explanation);
  const id = text(raw.id);
  return {
    subject,
    split,
    id: id === "" ? String(row - 1) : id,
    question,
    choices,
    answer,
    explanation: explanation === "" ? null : explanation,
    source: { file, row },
  };
}
