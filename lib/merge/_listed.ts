/**
 * How a merge's error messages name keys and folders: the first few, and
 * how many more. Private to `lib/merge`.
 *
 * @module
 */

/** Most keys named in one message. */
const SHOWN = 5;

/** The first five items, joined, and how many more there are. */
export function listed(items: readonly string[]): string {
  const head = items.slice(0, SHOWN).join(", ");
  return items.length > SHOWN
    ? `${head} and ${items.length - SHOWN} more`
    : head;
}
