/**
 * Drops the top-level example and test code beside the entry (usage
 * prints, example asserts, `__main__` / `require.main` blocks, reads of
 * stdin, test loops, CommonJS exports) from a chosen block by dependency
 * (`_extract_deps.ts`), and says what it dropped.
 *
 * @module
 */
import type { CodeBlock } from "./_extract_block.ts";
import { cutStatements, describeDropped } from "./_extract_cut.ts";
import { dependencyCut, type TopStatement } from "./_extract_deps.ts";
import { javascriptStatements } from "./_extract_deps_js.ts";
import type { PythonReader } from "./_extract_deps_py.ts";

/** A block's code without its example code, and what the reason says. */
export interface WithoutExamples {
  /** The code; the block's own, byte for byte, when nothing was dropped. */
  code: string;
  /** For the reason: what was dropped, or why nothing could be; null when there was nothing to drop. */
  note: string | null;
}

/**
 * The block's code without its top-level example and test code. Code that
 * cannot be parsed is kept as is, and the note says why.
 *
 * @param block The chosen block (its language decides the parser).
 * @param options The function that will be called, and the reader of
 *   Python programs.
 * @returns The code and the reason's note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyseBlock } from "./_extract_block.ts";
 * import { pythonReader } from "./_extract_deps_py.ts";
 * import { dropExamples } from "./_extract_examples.ts";
 * const block = analyseBlock("def f(x):\n    return x\n\nprint(f(2))\n", [0, 0], "python", true);
 * const python = pythonReader();
 * assert.deepEqual(await dropExamples(block, { entry: "f", python }), {
 *   code: "def f(x):\n    return x\n",
 *   note: "dropped top-level example code: print call (line 4)",
 * });
 * await python.close();
 * ```
 */
export async function dropExamples(
  block: CodeBlock,
  options: { entry: string; python: PythonReader },
): Promise<WithoutExamples> {
  const { entry } = options;
  const code = block.code;
  if (block.language === null) return { code, note: null };
  const python = block.language === "python";
  const read: TopStatement[] | { error: string } | null = python
    ? await options.python.read(code)
    : block.program !== null
    ? javascriptStatements(block.program, code)
    : null;
  const asIs = (why: string, then = "") => ({
    code,
    note: `${why}: kept as is${then}`,
  });
  const syntax = ", the sandbox reports the syntax error";
  if (read === null) return asIs("the JavaScript parser rejects it", syntax);
  if ("error" in read) {
    const why = `the Python top level cannot be scanned (${read.error})`;
    return asIs(why, read.error.startsWith("cannot run") ? "" : syntax);
  }
  const dropped = dependencyCut(read, entry);
  if (dropped.length === 0) return { code, note: null };
  // Comment lines at column 0 between statements go with the one below.
  const comments = new Set<number>();
  let at = 0;
  code.split("\n").forEach((line, i) => {
    const between = read.every((s) => at < s.start || at >= s.end);
    if (between && line.startsWith(python ? "#" : "//")) comments.add(i);
    at += line.length + 1;
  });
  const kept = cutStatements(code, dropped, comments);
  if (kept.trim() === "") return asIs("the block holds only example code");
  return {
    code: kept,
    note: `dropped top-level example code: ${describeDropped(code, dropped)}`,
  };
}
