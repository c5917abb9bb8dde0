/**
 * Writes synthetic run folders for the report tests: deterministic rows in
 * the ResultRow shape, with dims keys that differ between rows.
 */
import { join } from "node:path";
import type { ResultRow } from "../../lib/types.ts";
import { mulberry32 } from "../../lib/math/rng.ts";

/** Options for {@linkcode fakeRows}. */
export interface FakeRowsOptions {
  models?: string[];
  questions?: number;
  templates?: string[];
  seed?: number;
  run?: string;
  /** Rows before this index lack the `digits` dim (it appears late). */
  digitsFrom?: number;
}

/** A tiny seeded PRNG so fixtures are the same on every machine. */
export function rng(seed: number): () => number {
  return mulberry32(seed);
}

/** The fields a row of {@linkcode resultRow} needs; the others have defaults. */
export type RowFields =
  & Pick<
    ResultRow,
    "key" | "model" | "suite" | "question_id" | "template" | "status"
  >
  & Partial<ResultRow>;

/**
 * One result row: the given fields, and for the others what a plain reply
 * has (correct and score follow the status; an error row has its error).
 */
export function resultRow(fields: RowFields): ResultRow {
  const { status } = fields;
  const row: ResultRow = {
    key: fields.key,
    run: "fake",
    model: fields.model,
    suite: fields.suite,
    question_id: fields.question_id,
    template: fields.template,
    sample: 0,
    dims: {},
    question: "q",
    prompt: null,
    expected: "1",
    status,
    correct: status === "correct",
    score: status === "correct" ? 1 : 0,
    format_valid: status === "correct" || status === "wrong",
    error_class: null,
    rel_error: null,
    extracted: null,
    extract_rule: null,
    response: "x",
    reasoning: null,
    finish_reason: "stop",
    prompt_tokens: 10,
    completion_tokens: 2,
    latency_ms: 5,
    attempts: 1,
    cached: false,
    error_kind: status === "error" ? "server" : null,
    error_message: status === "error" ? "boom" : null,
    explanation: null,
    metrics: {},
    transcript: null,
    finished_at: "2026-01-01T00:00:00.000Z",
  };
  return Object.assign(row, fields);
}

/** Deterministic fake result rows: every model × question × template. */
export function fakeRows(options: FakeRowsOptions = {}): ResultRow[] {
  const {
    models = ["m-good", "m-bad"],
    questions = 40,
    templates = ["direct", "cot"],
    seed = 1,
    run = "fake",
    digitsFrom = 0,
  } = options;
  const rand = rng(seed);
  const rows: ResultRow[] = [];
  for (let q = 0; q < questions; q++) {
    for (const model of models) {
      for (const template of templates) {
        const index = rows.length;
        const family = q % 2 === 0 ? "add" : "mul";
        const digits = 2 + 2 * (q % 3);
        const skill = model.includes("good") ? 0.9 : 0.4;
        const p = skill - (digits - 2) * 0.08 + (template === "cot" ? 0.05 : 0);
        const roll = rand();
        const status = roll < p
          ? "correct"
          : roll < p + 0.05
          ? "parse_error"
          : roll < p + 0.08
          ? "error"
          : "wrong";
        const dims: ResultRow["dims"] = { family, level: `d${digits}` };
        if (index >= digitsFrom) dims.digits = digits;
        const qid = `fake/${family}/${q}`;
        rows.push(resultRow({
          key: `${model}|${qid}|${template}|0`,
          run,
          model,
          suite: "arithmetic",
          question_id: qid,
          template,
          dims,
          question: `q${q}`,
          expected: String(q),
          status,
          format_valid: status !== "parse_error",
          error_class: status === "wrong" ? (q % 2 ? "carry" : "sign") : null,
          extracted: status === "correct"
            ? String(q)
            : status === "wrong"
            ? String(q + 1)
            : null,
          extract_rule: "bare",
          prompt_tokens: 20 + q,
          completion_tokens: template === "cot" ? 60 + (q % 7) : 3,
          latency_ms: Math.round(50 + rand() * 200),
        }));
      }
    }
  }
  return rows;
}

/**
 * Writes a run folder (manifest + results.jsonl) and returns its path. The
 * default manifest names the rows' run (the report counts only a run's
 * own rows) and no models.
 */
export async function writeFakeRun(
  parent: string,
  name: string,
  rows: ResultRow[],
  manifest: Record<string, unknown> = {
    run: rows[0]?.run ?? name,
    config: { models: [] },
  },
): Promise<string> {
  const dir = join(parent, name);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify(manifest),
  );
  await Deno.writeTextFile(
    join(dir, "results.jsonl"),
    rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : ""),
  );
  return dir;
}
