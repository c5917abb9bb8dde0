/**
 * The rows the sample viewer embeds: which rows (all of them, or for a
 * large run a stated sample), the fields it shows, each suite's dims as
 * their own columns and each row's suite detail, packed column by column
 * with every distinct string stored once.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../frame.ts";
import { mulberry32 } from "../../math/rng.ts";
import { type DimValue, RESULT_COLUMNS } from "../../types.ts";
import type { SampleDetail, SampleRow, ViewerSuite } from "./types.ts";
import type { PayloadCell, ViewerPayload } from "./payload.ts";

/** Options for {@linkcode viewerRows}. */
export interface ViewerRowsOptions {
  /** Rows embedded at most; a larger run embeds a sample. @default {20000} */
  maxRows?: number;
  /** Seed of the sample of correct rows. @default {1} */
  seed?: number;
  /** Characters kept of one text field. @default {20000} */
  maxText?: number;
  /**
   * The frame column that holds a suite's dim (a dim sharing its name
   * with a ResultRow field is loaded as `dim_<name>`).
   * @default the column of that name, when present
   */
  dimColumn?: (name: string) => string | null;
  /** The frame's columns that came from dims (not metrics). @default {[]} */
  dimColumns?: readonly string[];
}

/** The packed rows and what the page says about them. */
export interface ViewerRows {
  /** Rows embedded. */
  shown: number;
  /** Rows in the frame. */
  total: number;
  /** Whether only a sample of the rows is embedded. */
  sampled: boolean;
  /** One sentence on which rows are embedded. */
  note: string;
  /** The packed data, as the page's script reads it. */
  data: ViewerPayload;
}

/** The generic fields the viewer shows, in order. */
const FIELDS = [
  "key",
  "run",
  "suite",
  "model",
  "question_id",
  "template",
  "sample",
  "status",
  "correct",
  "question",
  "prompt",
  "expected",
  "response",
  "reasoning",
  "extracted",
  "extract_rule",
  // An ambiguous reply's values, the numbers the rules set aside, and the
  // extraction judge's reading.
  "candidates",
  "set_aside",
  "rule_extract",
  "judge_answer",
  "explanation",
  "error_class",
  "rel_error",
  "transcript",
  "finish_reason",
  "error_kind",
  "error_message",
  "prompt_tokens",
  "completion_tokens",
  "latency_ms",
  "attempts",
  "cached",
] as const;

/** Keeps the start of a long text and says how much was cut. */
function clip(v: string, max: number): string {
  return v.length <= max
    ? v
    : `${v.slice(0, max)}\n… [${
      (v.length - max).toLocaleString("en")
    } more characters not embedded; the whole text is in results.jsonl]`;
}

/**
 * A row's `prompt` (JSON chat messages) with each message's text kept to
 * `max` characters by {@linkcode clip}, so it stays JSON the page can
 * parse; text that is not a message list is clipped whole.
 */
function clipPrompt(json: string, max: number): string {
  if (json.length <= max) return json;
  try {
    const list: unknown = JSON.parse(json);
    if (Array.isArray(list)) {
      return JSON.stringify(
        list.map((m) =>
          typeof m === "object" && m !== null && typeof m.content === "string"
            ? { ...m, content: clip(m.content, max) }
            : m
        ),
      );
    }
  } catch {
    // Not JSON: clipped as text below.
  }
  return clip(json, max);
}

/** Indices 0..n-1, `k` of them, chosen by a seeded partial shuffle, sorted. */
function sampleIndices(n: number, k: number, seed: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  const rand = mulberry32(seed);
  const m = Math.min(k, n);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(rand() * (n - i));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx.slice(0, m).sort((a, b) => a - b);
}

/** A scalar from a frame record (bigints as numbers, objects as JSON). */
function scalar(v: unknown): DimValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "object") return JSON.stringify(v);
  return v as DimValue;
}

/** Which row indices to embed, and the sentence that says so. */
function pick(
  frame: DataFrame,
  maxRows: number,
  seed: number,
): { rows: number[]; note: string } {
  const n = frame.height;
  const fmt = (x: number) => x.toLocaleString("en");
  if (n <= maxRows) {
    return { rows: [...Array(n).keys()], note: `All ${fmt(n)} rows embedded.` };
  }
  const ok = frame.columns.includes("status")
    ? (frame.getColumn("status").toArray() as unknown[]).map((s) =>
      s === "correct"
    )
    : (frame.getColumn("correct").toArray() as unknown[]).map((c) =>
      c === true
    );
  const wrong = ok.flatMap((x, i) => x ? [] : [i]);
  const right = ok.flatMap((x, i) => x ? [i] : []);
  const wrongKept = wrong.slice(0, Math.ceil(maxRows / 2));
  const rightKept = sampleIndices(
    right.length,
    maxRows - wrongKept.length,
    seed,
  ).map((i) => right[i]!);
  const rows = [...wrongKept, ...rightKept].sort((a, b) => a - b);
  return {
    rows,
    note: `A sample of ${fmt(rows.length)} of the ${fmt(n)} rows is embedded: ${
      wrongKept.length === wrong.length
        ? `all ${fmt(wrong.length)} rows not correct`
        : `the first ${fmt(wrongKept.length)} of the ${
          fmt(wrong.length)
        } rows not correct`
    } and ${fmt(rightKept.length)} of the ${
      fmt(right.length)
    } correct rows (a seeded sample, seed ${seed}). Counts, filters and the disagreement view here cover these rows only; the tables above cover all.`,
  };
}

/**
 * Packs the rows the sample viewer embeds: the generic fields, each
 * suite's dims as a column `d:<suite>:<dim>` (filled on that suite's rows
 * only, so two suites' dims of one name stay apart), each row's detail
 * from its suite's `detail` hook, and a note saying whether all rows or a
 * sample are embedded. Strings are stored once in `S`; string columns
 * (named in `I`) hold indices into it (-1 for none), so a prompt many
 * models were sent is embedded once. Text longer than `maxText` is cut
 * with a note; a prompt's messages are cut one by one and stay JSON.
 *
 * @param frame The report's rows (with a `suite` column).
 * @param suites The suites the report knows.
 * @param options Caps, seed and how dims map to columns.
 * @returns The packed rows and the note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { viewerRows } from "./rows.ts";
 *
 * const frame = pl.DataFrame({
 *   key: ["a|q|t|0", "b|q|t|0"], suite: ["s", "s"], model: ["a", "b"],
 *   status: ["correct", "wrong"], question: ["1+1?", "1+1?"], level: ["x", "y"],
 *   prompt: Array(2).fill(JSON.stringify([{ role: "user", content: "1+1?" }])),
 * });
 * const suite = {
 *   name: "s", dims: [{ name: "level", kind: "categorical" as const, label: "level" }],
 *   detail: () => ({ parts: [{ kind: "text" as const, title: "t", text: "hi" }] }),
 * };
 * const r = await viewerRows(frame, [suite]);
 * assert.equal(r.note, "All 2 rows embedded.");
 * const S = r.data.S as string[];
 * const C = r.data.C as Record<string, number[]>;
 * assert.deepEqual(C["d:s:level"]!.map((i) => S[i]), ["x", "y"]);
 * assert.equal(C.question![0], C.question![1]); // one copy of the text
 * assert.equal(C.prompt![0], C.prompt![1]); // one copy of the prompt
 * assert.equal(JSON.parse(S[C.prompt![0]!]!)[0].content, "1+1?");
 * assert.equal(r.sampled, false);
 * // A long prompt is cut message by message and stays JSON.
 * const cut = await viewerRows(frame, [suite], { maxText: 2 });
 * const sent = (cut.data.S as string[])[(cut.data.C as Record<string, number[]>).prompt![0]!]!;
 * assert.match(JSON.parse(sent)[0].content, /^1\+\n… \[2 more characters not embedded/);
 * const big = await viewerRows(frame, [suite], { maxRows: 1 });
 * assert.match(big.note, /^A sample of 1 of the 2 rows/);
 * ```
 */
export async function viewerRows(
  frame: DataFrame,
  suites: readonly ViewerSuite[],
  options: ViewerRowsOptions = {},
): Promise<ViewerRows> {
  const {
    maxRows = 20000,
    seed = 1,
    maxText = 20000,
    dimColumns = [],
  } = options;
  const has = (c: string) => frame.columns.includes(c);
  const dimColumn = options.dimColumn ?? ((n: string) => has(n) ? n : null);
  const fields = FIELDS.filter(has);
  const skip = new Set<string>([...RESULT_COLUMNS, ...dimColumns, "cost"]);
  const metricCols = frame.columns.filter((c) => !skip.has(c));
  const { rows: picked, note } = pick(frame, maxRows, seed);
  const suiteDims = suites.map((s) => ({
    suite: s,
    dims: s.dims.flatMap((d) => {
      const column = dimColumn(d.name);
      return column === null ? [] : [{
        col: `d:${s.name}:${d.name}`,
        name: d.name,
        label: d.label,
        column,
      }];
    }),
  }));
  const wanted = [
    ...new Set([
      ...fields,
      ...suiteDims.flatMap((s) => s.dims.map((d) => d.column)),
      ...metricCols,
    ]),
  ];
  const records = frame.select(...wanted.map((c) => pl.col(c))).toRecords();

  const S: string[] = [];
  const ids = new Map<string, number>();
  const intern = (s: string) => {
    let i = ids.get(s);
    if (i === undefined) {
      i = S.length;
      S.push(s);
      ids.set(s, i);
    }
    return i;
  };
  const C: Record<string, PayloadCell[]> = {};
  const interned = new Set<string>();
  const put = (col: string, i: number, v: DimValue) => {
    const arr = C[col] ??= Array(picked.length).fill(null);
    if (typeof v === "string") {
      interned.add(col);
      // One copy of each distinct text: the models given one question's
      // prompt (same template and sample) share its index.
      arr[i] = intern(
        col === "prompt" ? clipPrompt(v, maxText) : clip(v, maxText),
      );
    } else arr[i] = v;
  };
  const detail: number[][] = [];
  const spans: ([number, number] | null)[] = [];
  for (const [i, r] of picked.entries()) {
    const rec = records[r]!;
    for (const f of fields) put(f, i, scalar(rec[f]));
    const own = suiteDims.find((s) => s.suite.name === rec.suite);
    const dims: Record<string, DimValue> = {};
    for (const d of own?.dims ?? []) {
      const v = scalar(rec[d.column]);
      dims[d.name] = v;
      put(d.col, i, v);
    }
    let got: SampleDetail | null = null;
    if (own?.suite.detail) {
      const metrics: Record<string, DimValue> = {};
      for (const m of metricCols) {
        const v = scalar(rec[m]);
        if (v !== null) metrics[m.replace(/^metric_/, "")] = v;
      }
      const row: SampleRow = {
        ...Object.fromEntries(fields.map((f) => [f, scalar(rec[f])])),
        dims,
        metrics,
      };
      try {
        got = await own.suite.detail(row);
      } catch (error) {
        got = {
          parts: [{
            kind: "text",
            title: "Not shown",
            text: `Cannot show the ${own.suite.name} suite's detail: ${
              error instanceof Error ? error.message : String(error)
            }`,
          }],
        };
      }
    }
    detail.push((got?.parts ?? []).map((p) => intern(JSON.stringify(p))));
    spans.push(got?.span ?? null);
  }
  for (const [col, arr] of Object.entries(C)) {
    // A column of nulls only is left out: the script reads it as null.
    if (arr.every((v) => v === null)) delete C[col];
    else if (interned.has(col)) C[col] = arr.map((v) => v === null ? -1 : v);
  }
  const spanOf: Record<number, [number, number]> = {};
  spans.forEach((s, i) => {
    if (s) spanOf[i] = s;
  });
  const present = new Set(
    picked.map((r) => String(records[r]!.suite ?? "")),
  );
  return {
    shown: picked.length,
    total: frame.height,
    sampled: picked.length < frame.height,
    note,
    data: {
      n: picked.length,
      total: frame.height,
      S,
      I: [...interned],
      C,
      detail,
      spans: spanOf,
      suites: suiteDims.filter((s) => present.has(s.suite.name)).map((s) => ({
        name: s.suite.name,
        dims: s.dims.map(({ col, name, label }) => ({ col, name, label })),
      })),
    },
  };
}
