/**
 * An adaptive entry's questions sorted for its designs: by group (one
 * design each, e.g. an arithmetic family) and, within a group, by size
 * (e.g. digits), each size's questions in the entry's order. The design
 * picks a size; the next unasked question of that size is asked. The
 * questions are the entry's ordinary ones, so an adaptive run asks a
 * subset of what the full grid would, under the same ids.
 *
 * @module
 */
import type { Question } from "../types.ts";

/** Where a question sits along an adaptive dim. */
export interface AdaptivePlace {
  /** Its group: one design per group (e.g. `"mul"`, `"div/exact"`). */
  group: string;
  /** Its size along the dim (e.g. the digit count). */
  size: number;
}

/** The questions of one group, by size. */
export interface AdaptivePool<Q = Question> {
  /** The group's id. */
  group: string;
  /** Its sizes, ascending. */
  sizes: number[];
  /** Each size's questions, in the entry's order. */
  questions: Map<number, Q[]>;
}

/**
 * Sorts questions into groups and sizes. Questions `place` puts nowhere
 * (null) are left out; groups come in order of their first question.
 *
 * @param questions The entry's questions, in order.
 * @param place Where a question sits (the suite's hook for the dim).
 * @returns One pool per group.
 * @throws {RangeError} for a size that is not a finite number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { adaptivePools } from "./pools.ts";
 * const qs = [
 *   { id: "a3", family: "add", digits: 3 },
 *   { id: "m2", family: "mul", digits: 2 },
 *   { id: "a1", family: "add", digits: 1 },
 *   { id: "a3b", family: "add", digits: 3 },
 * ];
 * const pools = adaptivePools(qs, (q) => ({ group: q.family, size: q.digits }));
 * assert.deepEqual(pools.map((p) => [p.group, p.sizes]), [["add", [1, 3]], ["mul", [2]]]);
 * assert.deepEqual(pools[0]!.questions.get(3)!.map((q) => q.id), ["a3", "a3b"]);
 * ```
 */
export function adaptivePools<Q>(
  questions: readonly Q[],
  place: (question: Q) => AdaptivePlace | null,
): AdaptivePool<Q>[] {
  const pools = new Map<string, AdaptivePool<Q>>();
  for (const question of questions) {
    const at = place(question);
    if (at === null) continue;
    if (!Number.isFinite(at.size)) {
      throw new RangeError(
        `Cannot place a question of group "${at.group}" at size ${at.size}: sizes are numbers`,
      );
    }
    let pool = pools.get(at.group);
    if (pool === undefined) {
      pool = { group: at.group, sizes: [], questions: new Map() };
      pools.set(at.group, pool);
    }
    let list = pool.questions.get(at.size);
    if (list === undefined) {
      list = [];
      pool.questions.set(at.size, list);
      pool.sizes.push(at.size);
    }
    list.push(question);
  }
  for (const pool of pools.values()) pool.sizes.sort((a, b) => a - b);
  return [...pools.values()];
}
