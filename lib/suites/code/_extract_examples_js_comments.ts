/**
 * The lines of a JavaScript/TypeScript program that hold only a comment
 * starting at column 0 (the cut takes those just above a dropped
 * statement with it).
 *
 * @module
 */
import type { JsProgram } from "./quality/mod.ts";

/** 0-based lines covered by a comment that starts at column 0 and has nothing after it on its last line. */
export function commentOnlyLines(
  program: JsProgram,
  code: string,
): Set<number> {
  const lines = code.split("\n");
  const commentLines = new Set<number>();
  const lineStarts = [0];
  for (const l of lines) lineStarts.push(lineStarts.at(-1)! + l.length + 1);
  for (const c of program.comments) {
    const firstLine = lineStarts.findIndex((o, i) =>
      o <= c.start && c.start < lineStarts[i + 1]!
    );
    if (firstLine < 0 || lineStarts[firstLine] !== c.start) continue;
    let last = firstLine;
    while (lineStarts[last + 1]! <= c.end - 1) last++;
    const after = lines[last]!.slice(c.end - lineStarts[last]!);
    if (after.trim() !== "") continue;
    for (let i = firstLine; i <= last; i++) commentLines.add(i);
  }
  return commentLines;
}
