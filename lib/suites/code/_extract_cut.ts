/**
 * Cutting top-level statements out of a program, and naming what was cut:
 * the part of example-code dropping that is the same for every language.
 *
 * @module
 */

/** A top-level statement to drop as example or test code. */
export interface ExampleStatement {
  /** What it is, as the reason names it (`print call`, `__main__ block`, …). */
  kind: string;
  /** Offset of the statement's first character. */
  start: number;
  /** Offset just past its last character (a newline included or not). */
  end: number;
}

/** 1-based first and last line of `[start, end)` in `code`. */
function lineSpan(code: string, start: number, end: number): [number, number] {
  const lineAt = (offset: number) => {
    let line = 1;
    for (let i = 0; i < offset; i++) if (code.charCodeAt(i) === 10) line++;
    return line;
  };
  let last = end;
  while (last > start && /\s/.test(code[last - 1]!)) last--;
  return [lineAt(start), lineAt(Math.max(start, last - 1))];
}

/**
 * The dropped statements as the reason lists them, in order:
 * `print call (line 9), __main__ block (lines 11–14)`.
 *
 * @param code The program the offsets refer to.
 * @param dropped The statements.
 * @returns The list, comma-separated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeDropped } from "./_extract_cut.ts";
 * const code = "def f():\n    return 1\nprint(f())\n";
 * const print = { kind: "print call", start: code.indexOf("print"), end: code.length };
 * assert.equal(describeDropped(code, [print]), "print call (line 3)");
 * ```
 */
export function describeDropped(
  code: string,
  dropped: readonly ExampleStatement[],
): string {
  return [...dropped].sort((a, b) => a.start - b.start).map((d) => {
    const [first, last] = lineSpan(code, d.start, d.end);
    return `${d.kind} (${
      first === last ? `line ${first}` : `lines ${first}–${last}`
    })`;
  }).join(", ");
}

/** Offsets at which each line starts. */
function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = 0; i < code.length; i++) {
    if (code.charCodeAt(i) === 10) starts.push(i + 1);
  }
  return starts;
}

/**
 * The program without the dropped statements. A statement alone on its
 * lines goes with those lines, its trailing comment and the comment lines
 * at column 0 just above it (its "# Example usage"); a blank line left
 * doubled by the cut goes too. The result ends in one newline, like the
 * extracted code.
 *
 * @param code The program.
 * @param dropped The statements to cut.
 * @param commentLines 0-based lines that hold only a comment, at column 0.
 * @returns The remaining program.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cutStatements } from "./_extract_cut.ts";
 * const code = "def f():\n    return 1\n\n# Example\nprint(f())\n";
 * const print = { kind: "print call", start: code.indexOf("print"), end: code.length };
 * assert.equal(cutStatements(code, [print], new Set([3])), "def f():\n    return 1\n");
 * ```
 */
export function cutStatements(
  code: string,
  dropped: readonly ExampleStatement[],
  commentLines: ReadonlySet<number>,
): string {
  const starts = lineStarts(code);
  const lineOf = (offset: number) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const ranges = dropped.map((d) => {
    let start = d.start, end = d.end;
    const first = lineOf(start);
    if (code.slice(starts[first]!, start).trim() === "") start = starts[first]!;
    if (end > 0 && code[end - 1] !== "\n") {
      const nl = code.indexOf("\n", end);
      const tail = code.slice(end, nl < 0 ? code.length : nl);
      if (tail.trim() === "" || /^\s*(?:\/\/|#)/.test(tail)) {
        end = nl < 0 ? code.length : nl + 1;
      }
    }
    const whole = start === starts[lineOf(start)] &&
      (end === code.length || code[end - 1] === "\n");
    if (whole) {
      let line = lineOf(start);
      while (line > 0 && commentLines.has(line - 1)) line--;
      start = starts[line]!;
    }
    return { start, end, whole };
  }).sort((a, b) => a.start - b.start);
  let out = "";
  let pos = 0;
  for (const r of ranges) {
    if (r.end <= pos) continue;
    out += code.slice(pos, Math.max(pos, r.start));
    pos = r.end;
    if (r.whole && (out === "" || /(?:^|\n)[ \t]*\n$/.test(out))) {
      // The line before is blank (or there is none): so are the next ones.
      for (let m; (m = /^[ \t]*\n/.exec(code.slice(pos))) !== null;) {
        pos += m[0].length;
      }
    }
  }
  out += code.slice(pos);
  const trimmed = out.replace(/\s+$/, "");
  return trimmed === "" ? "" : `${trimmed}\n`;
}
