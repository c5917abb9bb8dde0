/**
 * Drops the top-level example and test code beside the entry (usage
 * prints, example asserts, `__main__` / `require.main` blocks, reads of
 * stdin, test loops, CommonJS exports) from a chosen block, keeping all
 * that the entry may depend on; says what it dropped.
 *
 * @module
 */
import type { CodeBlock } from "./_extract_block.ts";
import { cutStatements, describeDropped } from "./_extract_cut.ts";
import { javascriptExamples } from "./_extract_examples_js.ts";
import { pythonExamples } from "./_extract_examples_py.ts";

/** A block's code without its example code, and what the reason says. */
export interface WithoutExamples {
  /** The code; the block's own, byte for byte, when nothing was dropped. */
  code: string;
  /** For the reason: what was dropped, or why nothing could be; null when there was nothing to drop. */
  note: string | null;
}

/**
 * The block's code without its top-level example and test code.
 *
 * @param block The chosen block (its language decides the rules).
 * @param entry The function that will be called.
 * @returns The code and the reason's note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyseBlock } from "./_extract_block.ts";
 * import { dropExamples } from "./_extract_examples.ts";
 * const block = analyseBlock("def f(x):\n    return x\n\nprint(f(2))\n", [0, 0], "python", true);
 * const x = dropExamples(block, "f");
 * assert.equal(x.code, "def f(x):\n    return x\n");
 * assert.equal(x.note, "dropped top-level example code: print call (line 4)");
 * ```
 */
export function dropExamples(block: CodeBlock, entry: string): WithoutExamples {
  const code = block.code;
  if (block.language === "python") {
    const found = pythonExamples(code, entry);
    if ("error" in found) {
      return {
        code,
        note:
          `the Python top level cannot be scanned (${found.error}): kept as is, the sandbox reports the syntax error`,
      };
    }
    return cut(code, found.dropped, found.commentLines);
  }
  if (block.language === "javascript") {
    if (block.program === null) {
      return {
        code,
        note:
          "the JavaScript parser rejects it: kept as is, the sandbox reports the syntax error",
      };
    }
    const found = javascriptExamples(block.program, code, entry);
    return cut(code, found.dropped, found.commentLines);
  }
  return { code, note: null };
}

function cut(
  code: string,
  dropped: Parameters<typeof cutStatements>[1],
  commentLines: ReadonlySet<number>,
): WithoutExamples {
  if (dropped.length === 0) return { code, note: null };
  const kept = cutStatements(code, dropped, commentLines);
  if (kept.trim() === "") {
    return {
      code,
      note: "the block holds only example code: kept as is",
    };
  }
  return {
    code: kept,
    note: `dropped top-level example code: ${describeDropped(code, dropped)}`,
  };
}
