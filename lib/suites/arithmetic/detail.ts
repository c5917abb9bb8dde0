/**
 * What the report's sample viewer shows of an arithmetic row: the error
 * class, the relative error and the expected and extracted numbers one
 * above the other with the differing digits marked.
 *
 * @module
 */
import type { SampleDetail, SampleRow } from "../../report/viewer/mod.ts";

/** The two numbers right-aligned, with `^` under each differing place. */
function aligned(expected: string, got: string): string {
  const w = Math.max(expected.length, got.length);
  const a = expected.padStart(w), b = got.padStart(w);
  const marks = [...a].map((c, i) => c === b[i] ? " " : "^").join("");
  return `expected  ${a}\ngot       ${b}\n          ${marks}`.trimEnd();
}

/**
 * The arithmetic suite's sample detail.
 *
 * @param row The row.
 * @returns The error-class fields and, for a wrong number, the aligned digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arithmeticDetail } from "./detail.ts";
 * const d = arithmeticDetail({ expected: "87", extracted: "85", status: "wrong", error_class: "digit", rel_error: 0.023, dims: { carries: 0 }, metrics: {} });
 * assert.deepEqual(d.parts[0], { kind: "fields", title: "Error", fields: [["error class", "digit"], ["relative error", 0.023], ["carries", 0]] });
 * const digits = d.parts[1];
 * assert.equal(digits?.kind === "text" && digits.text, "expected  87\ngot       85\n           ^");
 * ```
 */
export function arithmeticDetail(row: SampleRow): SampleDetail {
  const wrong = row.status === "wrong";
  const parts: SampleDetail["parts"] = [{
    kind: "fields",
    title: "Error",
    fields: [
      [
        "error class",
        typeof row.error_class === "string"
          ? row.error_class
          : wrong
          ? "unclassified"
          : "none",
      ],
      [
        "relative error",
        typeof row.rel_error === "number" ? row.rel_error : null,
      ],
      ["carries", row.dims.carries ?? null],
    ],
  }];
  if (
    wrong && typeof row.expected === "string" &&
    typeof row.extracted === "string"
  ) {
    parts.push({
      kind: "text",
      title: "Digits",
      text: aligned(row.expected, row.extracted),
      code: true,
    });
  }
  return { parts };
}
