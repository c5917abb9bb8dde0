/**
 * The top-level statements of a Python program, found by a small scanner.
 *
 * Hand-written: the parent process has no Python (Python's own `ast` runs
 * only inside the sandbox), and this job needs no grammar, only where each
 * top-level statement starts and ends. The one maintained Python grammar
 * on npm, `@lezer/python`, is an editor grammar: it recovers from every
 * error (so it cannot say "this does not parse") and would add three
 * packages for what these 200 lines do. The scanner knows what decides a
 * statement's extent: strings (triple-quoted ones span lines, so a
 * docstring line at column 0 is not a statement), brackets spanning
 * lines, backslash continuations, comments, decorators and the clauses
 * that continue a compound statement (`elif`, `else`, `except`,
 * `finally`).
 *
 * @module
 */

/** One top-level statement. */
export interface PyStatement {
  /** First line (0-based); a decorated `def` starts at its first decorator. */
  first: number;
  /** Last line (0-based) holding code of the statement (comments after it excluded). */
  last: number;
  /** Offset of the first line's start. */
  start: number;
  /** Offset just past the last line's newline (or the end of the code). */
  end: number;
  /** The statement's source. */
  text: string;
  /**
   * The source with string contents and comments blanked to spaces
   * (quotes kept, newlines kept, same length): searches on it never hit
   * text inside a string or a comment.
   */
  masked: string;
  /** Its first word (`def`, `if`, `print`, `@`, …), from the masked text. */
  keyword: string;
}

/** What `scanPython` finds. */
export type PyScan =
  | { ok: true; statements: PyStatement[]; masked: string }
  | { ok: false; error: string };

const CONTINUES = new Set(["elif", "else", "except", "finally"]);
const OPEN = "([{";
const CLOSE = ")]}";

/**
 * Masks strings and comments and marks, per line, whether it starts a
 * logical line (outside strings and brackets, not after a backslash).
 */
function mask(
  code: string,
): { masked: string; starts: boolean[] } | { error: string } {
  const out = code.split("");
  const starts = [true];
  const brackets: { char: string; line: number }[] = [];
  let line = 0;
  let continued = false;
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  while (i < code.length) {
    const c = code[i]!;
    if (c === "#") {
      const nl = code.indexOf("\n", i);
      const to = nl < 0 ? code.length : nl;
      blank(i, to);
      i = to;
      continue;
    }
    if (c === '"' || c === "'") {
      const quote = code.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      const opened = line;
      let k = i + quote.length;
      for (;;) {
        if (k >= code.length) {
          return {
            error: `an unclosed ${
              quote.length === 3 ? "triple-quoted " : ""
            }string opened on line ${opened + 1}`,
          };
        }
        const d = code[k]!;
        if (d === "\\") {
          if (code[k + 1] === "\n") {
            line++;
            starts[line] = false;
          }
          k += 2;
          continue;
        }
        if (code.startsWith(quote, k)) break;
        if (d === "\n") {
          if (quote.length === 1) {
            return { error: `a string not closed on line ${opened + 1}` };
          }
          line++;
          starts[line] = false;
        }
        k++;
      }
      blank(i + quote.length, k);
      i = k + quote.length;
      continue;
    }
    if (OPEN.includes(c)) brackets.push({ char: c, line });
    else if (CLOSE.includes(c)) {
      const open = brackets.pop();
      if (open === undefined || OPEN.indexOf(open.char) !== CLOSE.indexOf(c)) {
        return { error: `an unmatched \`${c}\` on line ${line + 1}` };
      }
    } else if (c === "\\" && code[i + 1] === "\n") {
      continued = true;
      i++;
      continue;
    } else if (c === "\n") {
      line++;
      starts[line] = brackets.length === 0 && !continued;
      continued = false;
    }
    i++;
  }
  const open = brackets.pop();
  if (open !== undefined) {
    return {
      error: `an unclosed \`${open.char}\` opened on line ${open.line + 1}`,
    };
  }
  return { masked: out.join(""), starts };
}

/**
 * Splits a Python program into its top-level statements; never throws.
 *
 * A statement starts on a line that begins a logical line at column 0;
 * indented lines, continuation lines and `elif`/`else`/`except`/`finally`
 * clauses belong to the statement before them, decorators to the `def` or
 * `class` after them. Comment-only and blank lines between statements
 * belong to none.
 *
 * @param code The program (`\n` newlines).
 * @returns The statements and the masked program, or why the code cannot
 *   be scanned (an unclosed string or bracket, an unmatched bracket).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanPython } from "./_py_scan.ts";
 * const scan = scanPython('def f():\n    """Doc\nprint(1)\n"""\n    return 1\n\nprint(f())\n');
 * assert.ok(scan.ok);
 * assert.deepEqual(scan.statements.map((s) => [s.keyword, s.first, s.last]), [["def", 0, 4], ["print", 6, 6]]);
 * assert.equal(scanPython("x = (1,\n").ok, false);
 * ```
 */
export function scanPython(code: string): PyScan {
  const m = mask(code);
  if ("error" in m) return { ok: false, error: m.error };
  const lines = code.split("\n");
  const maskedLines = m.masked.split("\n");
  const offsets: number[] = [];
  let offset = 0;
  for (const l of lines) {
    offsets.push(offset);
    offset += l.length + 1;
  }
  const spans: { first: number; last: number; keyword: string }[] = [];
  let current: { first: number; last: number; keyword: string } | null = null;
  let decorating = false;
  for (let i = 0; i < lines.length; i++) {
    const masked = maskedLines[i]!;
    if (m.starts[i] === false) {
      // Inside a string, brackets or after a backslash: the same statement.
      if (current !== null) current.last = i;
      continue;
    }
    if (masked.trim() === "") continue;
    if (/^\s/.test(masked) && current !== null) {
      current.last = i;
      continue;
    }
    const keyword = /^\s*(@|[A-Za-z_]\w*|\S)/.exec(masked)![1]!;
    if (current !== null && (decorating || CONTINUES.has(keyword))) {
      if (decorating && keyword !== "@") current.keyword = keyword;
      decorating = keyword === "@";
      current.last = i;
      continue;
    }
    current = { first: i, last: i, keyword };
    decorating = keyword === "@";
    spans.push(current);
  }
  const statements = spans.map((s): PyStatement => {
    const start = offsets[s.first]!;
    const end = Math.min(
      code.length,
      offsets[s.last]! + lines[s.last]!.length + 1,
    );
    return {
      ...s,
      start,
      end,
      text: code.slice(start, end),
      masked: m.masked.slice(start, end),
    };
  });
  return { ok: true, statements, masked: m.masked };
}
