/**
 * The message for two questions with one id, as `loadEntries` finds them:
 * which entries (`suites[i]`), which of their params overlap, what to do.
 * Private to `lib/runner`.
 *
 * @module
 */
import { canonicalJson } from "../canonical.ts";
import type { SuiteConfig } from "../config/schema.ts";

/** At most this many shared list values are named per param. */
const SHOWN = 5;

/**
 * The list params two entries share values of (`subjects`, `digits`...):
 * those select the questions both ask. Scalars and lists with nothing in
 * common are not named.
 */
function overlap(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): string[] {
  const out: string[] = [];
  for (const name of Object.keys(a).sort()) {
    if (!(name in b)) continue;
    const x = a[name], y = b[name];
    if (Array.isArray(x) && Array.isArray(y)) {
      const inY = new Set(y.map((v) => canonicalJson(v)));
      const common = x.filter((v) => inY.has(canonicalJson(v)));
      if (common.length === 0) continue;
      const shown = common.slice(0, SHOWN).map((v) => JSON.stringify(v));
      out.push(
        `${name} both list ${shown.join(", ")}${
          common.length > SHOWN ? ` and ${common.length - SHOWN} more` : ""
        }`,
      );
    }
  }
  return out;
}

/**
 * Says that question `id` occurs twice: in entry `first` and again in
 * entry `again` (the same entry when its own questions repeat an id).
 *
 * @param id The question id.
 * @param suites The config's suite entries.
 * @param first The index of the entry that had it first.
 * @param again The index of the entry that has it again.
 * @returns "Cannot run the sweep: ..." naming both entries, the params
 *   they share and what to do.
 */
export function collisionMessage(
  id: string,
  suites: readonly SuiteConfig[],
  first: number,
  again: number,
): string {
  const names = [...new Set([first, again].map((i) => suites[i]?.name))]
    .map((n) => `"${n}"`).join(" and ");
  if (first === again) {
    return `Cannot run the sweep: question id "${id}" occurs twice in suites[${again}] (suite ${names}), so two rows would have one key; give each question of its dataset its own id`;
  }
  const shared = overlap(
    suites[first]?.params ?? {},
    suites[again]?.params ?? {},
  );
  const params = shared.length > 0
    ? `their params overlap (${shared.join("; ")})`
    : `their params (${canonicalJson(suites[first]?.params ?? {})} and ${
      canonicalJson(suites[again]?.params ?? {})
    }) select it in both`;
  return `Cannot run the sweep: suites[${first}] and suites[${again}] (suite ${names}) both ask question "${id}", so their rows would have one key; ${params}; make the entries select different questions (list each value in one entry only), or merge them into one entry with every template in its "templates"`;
}
