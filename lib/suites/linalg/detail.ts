/**
 * What the report's sample viewer shows of a linear-algebra row: the
 * matrices of the question as tables, the exact answer, the extracted
 * one, and the forensic label with its stage.
 *
 * @module
 */
import type {
  DetailPart,
  SampleDetail,
  SampleRow,
} from "../../report/viewer/mod.ts";

/** The `Name = \begin{bmatrix}…\end{bmatrix}` blocks of a question. */
function matrices(text: string): { name: string; rows: string[][] }[] {
  const out: { name: string; rows: string[][] }[] = [];
  const re =
    /(?:([A-Za-z]\w*)\s*=\s*)?\\begin\{[bp]?matrix\}([\s\S]*?)\\end\{[bp]?matrix\}/g;
  for (const m of text.matchAll(re)) {
    const rows = m[2]!.split("\\\\").map((r) => r.trim()).filter(Boolean)
      .map((r) => r.split("&").map((c) => c.trim()));
    out.push({ name: m[1] ?? `matrix ${out.length + 1}`, rows });
  }
  return out;
}

/** A JSON answer as table rows (a matrix, a list) or null for a scalar. */
function grid(text: unknown): string[][] | null {
  if (typeof text !== "string" || !text.startsWith("[")) return null;
  try {
    const v = JSON.parse(text) as unknown;
    if (!Array.isArray(v)) return null;
    return v.map((r) => Array.isArray(r) ? r.map(String) : [String(r)]);
  } catch {
    return null;
  }
}

/**
 * The linear-algebra suite's sample detail.
 *
 * @param row The row.
 * @returns The parts: matrices, the exact and extracted answers, the forensic label.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linalgDetail } from "./detail.ts";
 * const d = linalgDetail({
 *   question: "Find det A.\n\nA = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}",
 *   expected: "-2", extracted: "2", error_class: "sign_error",
 *   explanation: "stage2:sign_error: the sign is flipped", dims: {}, metrics: { forensic_stage: 2 },
 * });
 * assert.deepEqual(d.parts[0], { kind: "table", title: "A", columns: [], rows: [["1", "2"], ["3", "4"]], code: true });
 * assert.deepEqual(d.parts.at(-1), { kind: "fields", title: "Forensics", fields: [["label", "sign_error"], ["stage", 2], ["finding", "the sign is flipped"]] });
 * ```
 */
export function linalgDetail(row: SampleRow): SampleDetail {
  const parts: DetailPart[] = matrices(String(row.question ?? "")).map((
    m,
  ) => ({
    kind: "table",
    title: m.name,
    columns: [],
    rows: m.rows,
    code: true,
  }));
  for (
    const [title, value] of [["Exact answer", row.expected], [
      "Extracted (exact form)",
      row.extracted,
    ]] as const
  ) {
    const g = grid(value);
    if (g) {
      parts.push({ kind: "table", title, columns: [], rows: g, code: true });
    } else if (typeof value === "string") {
      parts.push({ kind: "text", title, text: value, code: true });
    }
  }
  const explanation = typeof row.explanation === "string"
    ? row.explanation
    : "";
  const finding = /^stage\d+:[^:]+:\s*(.*)$/s.exec(explanation)?.[1] ?? null;
  const stage = row.metrics.forensic_stage ??
    (Number(/^stage(\d+):/.exec(explanation)?.[1]) || null);
  parts.push({
    kind: "fields",
    title: "Forensics",
    fields: [
      ["label", typeof row.error_class === "string" ? row.error_class : null],
      ["stage", stage],
      ["finding", finding],
    ],
  });
  const reply = typeof row.response === "string" ? row.response : "";
  const boxed = reply.lastIndexOf("\\boxed{");
  return boxed < 0
    ? { parts }
    : { parts, span: [boxed, closing(reply, boxed + 7)] };
}

/** The index after the brace that closes the one opened before `from`. */
function closing(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i + 1;
  }
  return text.length;
}
