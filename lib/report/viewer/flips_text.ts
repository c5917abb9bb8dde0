/**
 * The two-run flips as text lines for a terminal.
 *
 * @module
 */
import type { RunFlips } from "../compare.ts";

/**
 * Formats what `compareRuns` returned as aligned lines: a heading, one
 * line per suite and model (pairs, fixed, broke, McNemar p) and up to
 * `shown` flipped pairs under each.
 *
 * @param flips What `compareRuns` returned.
 * @param a Run A.
 * @param b Run B.
 * @param shown Flipped pairs listed per line at most.
 * @returns The lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flipsText } from "./flips_text.ts";
 * const lines = flipsText([{ suite: "s", model: "m", pairs: 3, fixed: 1, broke: 0, mcnemarP: 1, flipped: [{ pair: "q|t|0", fixed: true }] }], "r1", "r2");
 * assert.match(lines[0]!, /^Verdicts flipped from r1 to r2/);
 * assert.match(lines.join("\n"), /s +m +3 +1 +0 +1\.000/);
 * assert.match(lines.join("\n"), /fixed q\|t\|0/);
 * ```
 */
export function flipsText(
  flips: readonly RunFlips[],
  a: string,
  b: string,
  shown = 5,
): string[] {
  const head = ["suite", "model", "pairs", "fixed", "broke", "McNemar p"];
  const rows = flips.map((f) => [
    f.suite,
    f.model,
    String(f.pairs),
    String(f.fixed),
    String(f.broke),
    f.mcnemarP < 0.001 ? f.mcnemarP.toExponential(1) : f.mcnemarP.toFixed(3),
  ]);
  const width = head.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => r[i]!.length))
  );
  const line = (cells: string[]) =>
    cells.map((c, i) => c.padEnd(width[i]!)).join("  ").trimEnd();
  const out = [
    `Verdicts flipped from ${a} to ${b} (fixed: correct only in ${b}; broke: correct only in ${a}):`,
    line(head),
  ];
  flips.forEach((f, i) => {
    out.push(line(rows[i]!));
    for (const x of f.flipped.slice(0, shown)) {
      out.push(`    ${x.fixed ? "fixed" : "broke"} ${x.pair}`);
    }
    if (f.flipped.length > shown) {
      out.push(`    … ${f.flipped.length - shown} more in the report's viewer`);
    }
  });
  return out;
}
