/**
 * Setting aside the lines of `results.jsonl` that are not rows (garbage in
 * the middle, a torn last line), so that nothing is lost and their keys are
 * redone. One rule for every command that appends to a run (the sweep on
 * resume, batch import).
 *
 * @module
 */
import { repairResults } from "./results_reader.ts";
import { rewriteResults } from "./results_writer.ts";

/** A line of a results file that is not a row. */
export interface BadResultLine {
  /** 1-based line number. */
  line: number;
  /** The line's text, without its newline. */
  text: string;
  /**
   * Why it is set aside, as a plural clause ("rows of another run").
   * @default "not result rows"
   */
  reason?: string;
}

/**
 * Ends a results file on a line boundary by the store's end-of-file rule
 * and moves the given lines that are not rows (as collected by
 * `readResults`' `onBadLine` and `onTornLine`) to
 * `results.bad-<time>.jsonl` beside it. The file is rewritten (through a
 * temporary file and a rename) only when lines in the middle go.
 *
 * @param resultsPath The `results.jsonl` path.
 * @param aside `bad`, the lines to set aside, and `when`, which names the
 *   file the lines go to.
 * @returns What to tell the user, or null when nothing was set aside.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tidyResults } from "./quarantine.ts";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/results.jsonl`;
 * await Deno.writeTextFile(path, '{"key":"a"}\noops\n{"key":"b"}\n{"ke');
 * const said = await tidyResults(path, { bad: [
 *   { line: 2, text: "oops" },
 *   { line: 4, text: '{"ke' },
 * ], when: new Date(0) });
 * assert.match(said!, /set aside 2 line\(s\), counted in no result \(not result rows: line 2, 4\)/);
 * assert.equal(await Deno.readTextFile(path), '{"key":"a"}\n{"key":"b"}\n');
 * const aside = `${dir}/results.bad-1970-01-01T00-00-00-000Z.jsonl`;
 * assert.equal(await Deno.readTextFile(aside), 'oops\n{"ke\n');
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function tidyResults(
  resultsPath: string,
  { bad, when }: { bad: readonly BadResultLine[]; when: Date },
): Promise<string | null> {
  const { torn } = await repairResults(resultsPath);
  if (bad.length === 0) return null;
  const aside = resultsPath.replace(
    /\.jsonl$/,
    `.bad-${when.toISOString().replace(/[:.]/g, "-")}.jsonl`,
  );
  await Deno.writeTextFile(aside, bad.map((b) => b.text + "\n").join(""), {
    append: true,
  });
  // The repair cut a torn last line: only lines in the middle need a rewrite.
  const last = Math.max(...bad.map((b) => b.line));
  const middle = new Set(
    bad.filter((b) => !(torn !== null && b.line === last && b.text === torn))
      .map((b) => b.line),
  );
  if (middle.size > 0) {
    const all = (await Deno.readTextFile(resultsPath)).split("\n");
    await rewriteResults(
      resultsPath,
      all.filter((t, i) => !middle.has(i + 1) && t !== ""),
    );
  }
  const byReason = new Map<string, number[]>();
  for (const b of bad) {
    const reason = b.reason ?? "not result rows";
    byReason.set(reason, [...(byReason.get(reason) ?? []), b.line]);
  }
  const clauses = [...byReason].map(([reason, lines]) =>
    `${reason}: line ${lines.slice(0, 5).join(", ")}${
      lines.length > 5 ? `, ... (${lines.length} in all)` : ""
    }`
  );
  return `${resultsPath}: set aside ${bad.length} line(s), counted in no result (${
    clauses.join("; ")
  }); moved them to ${aside} and redoing their keys`;
}
