/**
 * Same-tick batching for the quality measures: requests made in one tick
 * (and, with a limit, those that wait for a free run) share one run of an
 * expensive process. Written here because a process start is most of a
 * measure's cost and no library batches by tick with a run limit (p-limit
 * queues calls but runs each one alone).
 *
 * @module
 */
import pLimit from "p-limit";

/**
 * A function that queues an item and resolves with its result from a
 * batched run of `run` (at most `max` items a run, at most `limit` runs at
 * once; a batch is taken when its run starts).
 *
 * @param run Results for a batch, in its order (it must not throw).
 * @param max Items one run takes at most.
 * @param limit Runs at once. @default unbounded
 * @returns The queueing function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tickBatcher } from "./_batch.ts";
 * const runs: number[][] = [];
 * const double = tickBatcher(async (xs: number[]) => {
 *   runs.push(xs);
 *   return xs.map((x) => 2 * x);
 * }, 2);
 * assert.deepEqual(await Promise.all([1, 2, 3].map(double)), [2, 4, 6]);
 * assert.deepEqual(runs, [[1, 2], [3]]);
 * ```
 */
export function tickBatcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  max: number,
  limit = Infinity,
): (item: I) => Promise<O> {
  const slots = pLimit(limit);
  let queue: { item: I; resolve: (out: O) => void }[] = [];
  let scheduled = false;
  const drain = async () => {
    while (queue.length > 0) {
      await slots(async () => {
        const batch = queue.slice(0, max);
        queue = queue.slice(max);
        if (batch.length === 0) return;
        const out = await run(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(out[i]!));
      });
    }
  };
  return (item) =>
    new Promise((resolve) => {
      queue.push({ item, resolve });
      if (scheduled) return;
      scheduled = true;
      setTimeout(() => {
        scheduled = false;
        void drain();
      }, 0);
    });
}
