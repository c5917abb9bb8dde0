/**
 * `measureQuality`: lines, cyclomatic complexity, nesting depth and lint
 * findings of a candidate program, cached by a hash of (language, code).
 *
 * @module
 */
import { measureJavaScript } from "./_js.ts";
import { measurePython } from "./_python.ts";
import type { QualityLanguage, QualityMeasures } from "./types.ts";

const CACHE_LIMIT = 4096;
const cache = new Map<string, Promise<QualityMeasures>>();

async function cacheKey(language: string, code: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${language}\u0000${code}`);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

async function compute(
  code: string,
  language: QualityLanguage,
  key: string,
): Promise<QualityMeasures> {
  if (language === "javascript") return await measureJavaScript(code);
  const { measures, complete } = await measurePython(code);
  if (!complete) cache.delete(key);
  return measures;
}

/**
 * Measures a program's quality with real parsers; never runs the program.
 *
 * JavaScript (and TypeScript, which counts as javascript) is parsed with
 * `acorn`; cyclomatic complexity is 1 + the decision points `if`, `?:`,
 * `&&`, `||`, `??` (and `&&=`, `||=`, `??=`), `for`, `for…in/of`, `while`,
 * `do`, each non-default `case` and `catch`; lint findings are the
 * diagnostics of `deno lint --json` (default rules; top-level functions
 * count as exported; `deno-lint-ignore` comments do not apply) on a
 * temporary file. Python is parsed by its own `ast`
 * inside the Python sandbox: decision points `if`/`elif`, `for`, `while`,
 * each extra `and`/`or` operand, `except`, each comprehension `for` and
 * `if`, `x if c else y`, each non-wildcard `case`; findings are unused
 * local names, bare `except:`, mutable default arguments and shadowed
 * builtins. Results are cached in memory by a SHA-256 of (language, code).
 *
 * @param code The program text.
 * @param language Its language.
 * @returns The measures; `parse_ok: false` (cyclomatic and nesting 0,
 *   lint null) when the code does not parse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureQuality } from "./measure.ts";
 * const q = await measureQuality(
 *   "function f(xs) {\n  // sum the positives\n  let s = 0;\n  for (const x of xs) if (x > 0) s += x;\n  return s;\n}\n",
 *   "javascript",
 * );
 * assert.deepEqual(
 *   [q.lines, q.cyclomatic, q.nesting, q.lint_findings, q.parse_ok],
 *   [5, 3, 2, 0, true],
 * );
 * ```
 */
export async function measureQuality(
  code: string,
  language: QualityLanguage,
): Promise<QualityMeasures> {
  const key = await cacheKey(language, code);
  const hit = cache.get(key);
  if (hit !== undefined) return structuredClone(await hit);
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  const pending = compute(code, language, key);
  cache.set(key, pending);
  return structuredClone(await pending);
}
