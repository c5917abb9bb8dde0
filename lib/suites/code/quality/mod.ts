/**
 * Code-quality measures of candidate programs, computed by real parsers:
 * `acorn` and `deno lint` for JavaScript/TypeScript, Python's own `ast`
 * (inside the Python sandbox) for Python.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureQuality } from "./mod.ts";
 * const q = await measureQuality("const f = (a, b) => a > b ? a : b;\n", "javascript");
 * assert.equal(q.cyclomatic, 2);
 * ```
 *
 * @module
 */
export { measureQuality } from "./measure.ts";
export { childNodes, parseJavaScript, topLevelFunctions } from "./js_ast.ts";
export type {
  JsComment,
  JsNode,
  JsProgram,
  TopLevelFunction,
} from "./js_ast.ts";
export type { QualityLanguage, QualityMeasures } from "./types.ts";
