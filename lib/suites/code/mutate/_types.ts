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
