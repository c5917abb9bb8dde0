/**
 * The mutant record shared by the JavaScript and Python mutators.
 *
 * @module
 */

/** One mutant: a single change to the reference, and its regenerated code. */
export interface Mutant {
  /** The operator: comparison, off_by_one, arithmetic, drop_return, negate_if, logical. */
  operator: string;
  /** 1-based line and column of the changed node in the reference. */
  line: number;
  column: number;
  /** Operator, change and location, e.g. "comparison < → <= at 4:7". */
  description: string;
  /** The mutated program. */
  code: string;
  /** The changed lines, `- before` then `+ after` (see `lineDiff`). */
  diff: string;
}

/**
 * The lines that differ between two versions of a program (the common
 * head and tail dropped), as `- line` for the first and `+ line` for the
 * second, trimmed. Both versions come from the same code generator, so a
 * one-node mutant changes one line or a few.
 */
export function lineDiff(before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  return [
    ...a.slice(head, a.length - tail).map((l) => "- " + l.trim()),
    ...b.slice(head, b.length - tail).map((l) => "+ " + l.trim()),
  ].join("\n");
}

/**
 * At most `max` items, chosen deterministically and evenly spaced over the
 * list (which is in source order), so a cap samples the whole program.
 */
export function spread<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items.slice();
  const out: T[] = [];
  for (let i = 0; i < max; i++) {
    out.push(items[Math.floor((i + 0.5) * items.length / max)]!);
  }
  return out;
}
