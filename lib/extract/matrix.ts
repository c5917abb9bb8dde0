/**
 * Answer extraction for linear algebra: scalars, vectors and matrices
 * (`bmatrix`, `pmatrix`, nested lists, tables, plain rows) and eigenvalue
 * lists (order-free, multiplicities kept, `\sqrt{}` forms and decimals).
 * The last `\boxed{}` wins; for a matrix answer without a box, the last
 * matrix in the reply.
 *
 * @module
 */
import { boxedGroups } from "./_boxed.ts";
import { parseEigenvalueList } from "./_eigen_parse.ts";
import { findMatrices, parseEntry } from "./matrix_parse.ts";
import { blankThinking, normalizeChars } from "./_normalize.ts";
import { extractNumber } from "./number.ts";

export { findMatrices, parseEntry } from "./matrix_parse.ts";
export type { FoundMatrix, MatrixForm } from "./matrix_parse.ts";
export { parseEigenvalueList } from "./_eigen_parse.ts";

/** The answer kinds a linear-algebra extractor reads. */
export type LinalgAnswerKind = "rational" | "matrix" | "multiset";

/** What {@linkcode extractLinalgAnswer} found. */
export interface LinalgExtraction {
  /**
   * Normal form: a rational string (`"-41"`), a JSON matrix of rational
   * strings (`[["1","2"],["3","4"]]`), or a JSON list of eigenvalues
   * (exact rationals or 15-significant-digit decimals).
   */
  value: string;
  /** `"boxed"`, `"boxed_matrix"`, `"last_matrix"`, `"last_rows"`, `"eigen_line"`, or the number extractor's rule. */
  rule: string;
  /** Where the matrix is in the reply (start, end). */
  span: [number, number];
  /** Distinct boxed answers in the reply (1 when there is no box). */
  candidates: number;
}

function clean(text: string): string {
  return blankThinking(normalizeChars(text));
}

function scalarFrom(content: string): string | null {
  const afterEq = content.slice(content.lastIndexOf("=") + 1);
  return parseEntry(afterEq) ??
    extractNumber(afterEq)?.exact ??
    null;
}

function matrixJson(rows: string[][]): string {
  return JSON.stringify(rows);
}

/**
 * Extracts a linear-algebra answer of the given kind. Never throws;
 * returns null when nothing of that kind is found.
 *
 * @param text The reply (reasoning blocks are ignored).
 * @param kind `rational`, `matrix` or `multiset`.
 * @returns The answer in normal form with the rule that fired, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractLinalgAnswer } from "./matrix.ts";
 * assert.equal(extractLinalgAnswer("so $\\boxed{\\det(A) = -41}$", "rational")?.value, "-41");
 * const m = extractLinalgAnswer("\\boxed{\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}}", "matrix");
 * assert.deepEqual(JSON.parse(m!.value), [["1", "2"], ["3", "4"]]);
 * const e = extractLinalgAnswer("\\boxed{\\lambda = 1 \\pm \\sqrt{2}}", "multiset");
 * const [plus, minus] = (JSON.parse(e!.value) as string[]).map(Number);
 * assert.ok(Math.abs(plus! - (1 + Math.SQRT2)) < 1e-12 && Math.abs(minus! - (1 - Math.SQRT2)) < 1e-12);
 * ```
 */
export function extractLinalgAnswer(
  text: string,
  kind: LinalgAnswerKind,
): LinalgExtraction | null {
  try {
    const body = clean(text);
    const boxes = boxedGroups(body);
    const distinct = new Set(boxes.map((b) => b.content.replace(/\s+/g, "")));
    const candidates = Math.max(1, distinct.size);
    const last = boxes[boxes.length - 1];
    if (kind === "rational") {
      if (last) {
        const v = scalarFrom(last.content);
        if (v !== null) {
          return { value: v, rule: "boxed", span: last.span, candidates };
        }
      }
      const n = extractNumber(body);
      if (n?.exact === undefined) return null;
      return { value: n.exact, rule: n.rule, span: n.span, candidates };
    }
    if (kind === "matrix") {
      if (last) {
        let inBox = findMatrices(last.content, { plainRows: true });
        if (inBox.length === 0 && /&|\\\\/.test(last.content)) {
          // Bare LaTeX rows in the box: "1 & 2 \\ 3 & 4".
          inBox = findMatrices(
            `\\begin{bmatrix}${last.content}\\end{bmatrix}`,
          );
        }
        const m = inBox[inBox.length - 1];
        if (m) {
          return {
            value: matrixJson(m.rows),
            rule: "boxed_matrix",
            span: last.span,
            candidates,
          };
        }
      }
      const all = findMatrices(body);
      const m = all[all.length - 1];
      if (m) {
        return {
          value: matrixJson(m.rows),
          rule: "last_matrix",
          span: m.span,
          candidates,
        };
      }
      const rows = findMatrices(body, { plainRows: true });
      const r = rows[rows.length - 1];
      if (r) {
        return {
          value: matrixJson(r.rows),
          rule: "last_rows",
          span: r.span,
          candidates,
        };
      }
      return null;
    }
    if (last) {
      const values = parseEigenvalueList(last.content);
      if (values) {
        return {
          value: JSON.stringify(values),
          rule: "boxed",
          span: last.span,
          candidates,
        };
      }
    }
    // No usable box: the last line that lists eigenvalues.
    const lines = [
      ...body.matchAll(/(?:eigenvalues?\s+(?:are|is)|λ|\\lambda)[^\n]*/gi),
    ];
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!;
      const list = line[0].replace(/^.*?(?:are|is|=)\s*:?/i, "").replace(
        /\.\s*$/,
        "",
      );
      const values = parseEigenvalueList(list);
      if (values) {
        return {
          value: JSON.stringify(values),
          rule: "eigen_line",
          span: [line.index, line.index + line[0].length],
          candidates,
        };
      }
    }
    return null;
  } catch {
    return null;
  }
}
