/**
 * Group keys of the summary and completeness tables: one identity for a
 * group's key values, and one order of groups.
 *
 * @module
 */

/**
 * One string per group: its key values joined by a NUL character.
 *
 * @param keys The group's value of each grouping column.
 * @returns The group's identity.
 */
export const groupId = (keys: readonly string[]): string => keys.join("\u0000");

/** Code-point order, as Polars sorts strings (UTF-8 byte order). */
export function compareKeys(
  a: readonly string[],
  b: readonly string[],
): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!, y = b[i]!;
    if (x === y) continue;
    const xs = [...x], ys = [...y];
    for (let j = 0; j < Math.min(xs.length, ys.length); j++) {
      const d = xs[j]!.codePointAt(0)! - ys[j]!.codePointAt(0)!;
      if (d !== 0) return d;
    }
    return xs.length - ys.length;
  }
  return 0;
}
