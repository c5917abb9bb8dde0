/**
 * Drops the top-level example and test code beside the entry (usage
 * prints, example asserts, `__main__` / `require.main` blocks, reads of
 * stdin, test loops, CommonJS exports) from a chosen block by dependency:
 * what the entry transitively uses stays, with every definition and
 * import; top-level code that runs and feeds nothing the entry reads goes.
 * Says what it dropped.
 *
 * @module
 */
import type { CodeBlock } from "./_extract_block.ts";
import { cutStatements, describeDropped } from "./_extract_cut.ts";
import { dependencyCut, type TopStatement } from "./_extract_deps.ts";
import { javascriptStatements } from "./_extract_deps_js.ts";
import { pythonStatements } from "./_extract_deps_py.ts";

/** A block's code without its example code, and what the reason says. */
export interface WithoutExamples {
  /** The code; the block's own, byte for byte, when nothing was dropped. */
  code: string;
  /** For the reason: what was dropped, or why nothing could be; null when there was nothing to drop. */
  note: string | null;
}

/**
 * The block's code without its top-level example and test code. Code that
 * cannot be parsed, and code where no top-level statement declares the
 * entry, is kept as is, and the note says why.
 *
 * @param block The chosen block (its language decides the parser).
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
 * assert.match(dropExamples(block, "g").note!, /g is not declared at the top level: kept as is/);
 * ```
 */
export function dropExamples(block: CodeBlock, entry: string): WithoutExamples {
  const code = block.code;
  let statements: TopStatement[];
  if (block.language === "python") {
    const read = pythonStatements(code);
    if ("error" in read) {
      return {
        code,
        note:
          `the Python top level cannot be scanned (${read.error}): kept as is, the sandbox reports the syntax error`,
      };
    }
    statements = read;
  } else if (block.language === "javascript") {
    if (block.program === null) {
      return {
        code,
        note:
          "the JavaScript parser rejects it: kept as is, the sandbox reports the syntax error",
      };
    }
    statements = javascriptStatements(block.program, code);
  } else return { code, note: null };
  const dropped = dependencyCut(statements, entry);
  if (dropped === null) {
    return {
      code,
      note:
        `${entry} is not declared at the top level: kept as is, nothing to follow its dependencies from`,
    };
  }
  if (dropped.length === 0) return { code, note: null };
  const marker = block.language === "python" ? "#" : "//";
  const kept = cutStatements(
    code,
    dropped,
    commentLines(code, statements, marker),
  );
  if (kept.trim() === "") {
    return { code, note: "the block holds only example code: kept as is" };
  }
  return {
    code: kept,
    note: `dropped top-level example code: ${describeDropped(code, dropped)}`,
  };
}

/** 0-based lines outside every statement that start with a comment at column 0. */
function commentLines(
  code: string,
  statements: readonly TopStatement[],
  marker: string,
): Set<number> {
  const out = new Set<number>();
  let offset = 0;
  code.split("\n").forEach((line, i) => {
    const inside = statements.some((s) => s.start <= offset && offset < s.end);
    if (!inside && line.startsWith(marker)) out.add(i);
    offset += line.length + 1;
  });
  return out;
}
