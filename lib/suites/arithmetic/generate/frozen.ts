/**
 * Frozen question sets: write generated questions to a JSONL file
 * (`data/*.jsonl`) and read them back, validated line by line.
 *
 * @module
 */
import { z } from "zod";
import { EncodingInputError, InputLog } from "../../../inputs/mod.ts";
import type { Question } from "../../../types.ts";
import { fsReason } from "../../../os_error.ts";

const dimValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const rational = z.string().regex(
  /^-?\d+(\/\d+)?$/,
  'expected an exact rational such as "42" or "-3/4"',
);
const QuestionSchema = z.strictObject({
  id: z.string().min(1),
  suite: z.string().min(1),
  text: z.string().min(1),
  answer: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("rational"), value: rational }),
    z.strictObject({ kind: z.literal("choice"), value: z.string().min(1) }),
    z.strictObject({
      kind: z.literal("matrix"),
      value: z.array(z.array(z.string())),
    }),
    z.strictObject({ kind: z.literal("multiset"), value: z.array(z.string()) }),
    z.strictObject({ kind: z.literal("text"), value: z.string() }),
  ]),
  dims: z.record(z.string(), dimValue),
  payload: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Writes questions to a JSONL file, one per line (the folder must exist).
 *
 * @param questions The questions.
 * @param path The file to (over)write.
 * @returns Resolves when written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freezeQuestions, generateArithmetic, loadFrozen } from "./mod.ts";
 * const qs = generateArithmetic({ seed: 3, families: ["mul"], digits: [2], count: 2 });
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await freezeQuestions(qs, path);
 * assert.deepEqual(await loadFrozen(path), qs);
 * await Deno.remove(path);
 * ```
 */
export async function freezeQuestions(
  questions: readonly Question[],
  path: string,
): Promise<void> {
  const body = questions.map((q) => JSON.stringify(q)).join("\n");
  await Deno.writeTextFile(path, questions.length > 0 ? `${body}\n` : "");
}

/**
 * Reads a frozen question set. Blank lines are skipped; ids must be unique.
 *
 * @param path The JSONL file.
 * @param inputs The log the file is read through (strict UTF-8, recorded
 *   by content). @default a fresh log
 * @returns The questions, in file order.
 * @throws {EncodingInputError} for a file that is not UTF-8 (naming the line
 * and byte, or GBK/GB18030 and the command that converts it).
 * @throws {SyntaxError} for a line that is not JSON, and {TypeError} for a
 * line that is not a question — both name the file, the line number and
 * what is wrong — or for a file that cannot be read or holds no question
 * ({Deno.errors.NotFound} when it is missing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadFrozen } from "./mod.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, '{"id": 1}\n');
 * await assert.rejects(loadFrozen(path), /line 1/);
 * await Deno.remove(path);
 * ```
 */
export async function loadFrozen(
  path: string,
  inputs: InputLog = new InputLog(),
): Promise<Question[]> {
  let text: string;
  try {
    // Strict UTF-8 (a BOM accepted): bad bytes are named, never mojibake.
    text = await inputs.readText(path, { what: "the frozen questions" });
  } catch (error) {
    if (error instanceof EncodingInputError) throw error;
    // The OS error alone ("No such file or directory (os error 2)") names
    // neither the field nor what to do.
    const why = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder, not a JSONL file"
      : fsReason(error);
    const message =
      `Cannot load frozen questions: ${path}: ${why}; check the "dataset" path (relative to the config file)`;
    throw error instanceof Deno.errors.NotFound
      ? new Deno.errors.NotFound(message)
      : new TypeError(message);
  }
  const out: Question[] = [];
  const seen = new Set<string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (line === "") continue;
    const where = `${path} line ${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new SyntaxError(
        `Cannot load frozen questions: ${where}: not JSON (${
          (error as Error).message
        })`,
      );
    }
    const parsed = QuestionSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue?.path.length ? ` at "${issue.path.join(".")}"` : "";
      throw new TypeError(
        `Cannot load frozen questions: ${where}${at}: ${
          issue?.message ?? "invalid question"
        }`,
      );
    }
    if (seen.has(parsed.data.id)) {
      throw new TypeError(
        `Cannot load frozen questions: ${where}: duplicate id "${parsed.data.id}"`,
      );
    }
    seen.add(parsed.data.id);
    out.push(parsed.data as Question);
  }
  if (out.length === 0) {
    throw new TypeError(
      `Cannot load frozen questions: ${path} holds no questions (it is empty or blank); give a JSONL file with one question per line`,
    );
  }
  return out;
}
