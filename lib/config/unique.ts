/**
 * Config lists whose entries form part of a row key (models, templates,
 * subjects, digits, ...) hold each entry once: a repeat would run every
 * question of it twice under one key, or collide, so it is refused when
 * the config is parsed, at the repeat's own index.
 *
 * @module
 */
import type { z } from "zod";
import { canonicalJson } from "../canonical.ts";

/** One repeated entry, as {@linkcode UniqueListOptions.message} sees it. */
export interface ListRepeat<T> {
  /** The repeated entry. */
  entry: T;
  /** Its index in the list. */
  index: number;
  /** The index of the entry it repeats (the first with the same key). */
  first: number;
}

/** Options of {@linkcode uniqueList}. */
export interface UniqueListOptions<T> {
  /**
   * The canonical text two entries are compared by.
   * @default canonical JSON of the entry (`[3,4]` equals `[3,4]`)
   */
  key?: (entry: T) => string;
  /**
   * Where inside an entry the problem is reported, e.g. `["name"]` for a
   * list of objects compared by name.
   * @default [] (the entry itself)
   */
  at?: readonly (string | number)[];
  /**
   * The message of one repeat.
   * @default `<value> is listed again (first at [<first>]); list each entry once`
   */
  message?: (repeat: ListRepeat<T>) => string;
}

/** The default message: the value as JSON, where it was first, what to do. */
function listedAgain(repeat: ListRepeat<unknown>): string {
  return `${
    JSON.stringify(repeat.entry)
  } is listed again (first at [${repeat.first}]); list each entry once`;
}

/**
 * Makes a list schema refuse repeated entries: one issue per repeat, at
 * the repeat's index (plus `at`), naming the value and the index of its
 * first occurrence. Entries are compared by canonical value. The check
 * runs only when every entry is valid on its own.
 *
 * @param schema A zod schema of a list (any checks already added).
 * @param options How entries compare, where the issue goes, its message.
 * @returns The same schema with the check added (chain `.default()`,
 *   `.optional()` after it).
 * @throws {never} Building the schema does not throw; parsing reports
 *   repeats as zod issues (`code: "custom"`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { uniqueList } from "./unique.ts";
 * const families = uniqueList(z.array(z.string()).min(1));
 * assert.deepEqual(families.parse(["add", "sub"]), ["add", "sub"]);
 * const issues = families.safeParse(["add", "sub", "add"]).error?.issues ?? [];
 * assert.deepEqual(issues.map((i) => i.path), [[2]]);
 * assert.match(issues[0]!.message, /^"add" is listed again \(first at \[0\]\); list each entry once/);
 * // Compared by canonical value; a key function picks the field that must differ.
 * assert.equal(uniqueList(z.array(z.tuple([z.int(), z.int()]))).safeParse([[3, 4], [3, 4]]).success, false);
 * const models = uniqueList(z.array(z.object({ name: z.string() })), { key: (m) => m.name, at: ["name"] });
 * assert.deepEqual(models.safeParse([{ name: "a" }, { name: "a" }]).error?.issues[0]?.path, [1, "name"]);
 * ```
 */
export function uniqueList<S extends z.ZodType<readonly unknown[]>>(
  schema: S,
  options: UniqueListOptions<z.output<S>[number]> = {},
): S {
  type T = z.output<S>[number];
  const {
    key = canonicalJson,
    at = [],
    message = listedAgain as (repeat: ListRepeat<T>) => string,
  } = options;
  return schema.superRefine((entries, ctx) => {
    const firstOf = new Map<string, number>();
    (entries as readonly T[]).forEach((entry, index) => {
      const k = key(entry);
      const first = firstOf.get(k);
      if (first === undefined) {
        firstOf.set(k, index);
        return;
      }
      ctx.addIssue({
        code: "custom",
        path: [index, ...at],
        message: message({ entry, index, first }),
      });
    });
  });
}
