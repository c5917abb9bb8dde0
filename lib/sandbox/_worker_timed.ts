/**
 * The JavaScript worker's timing loops: a timed call (the value, then the
 * least time per call over several samples) and a measurement of one input
 * size (CPU time per call, with the number of calls per sample calibrated).
 *
 * @module
 */
import { errorText } from "./_worker_engine.ts";
import {
  apply,
  clockNow,
  encodeResult,
  now,
  parse,
  stringifyOwn as stringify,
} from "./_worker_captured.ts";
import { decodeArgs, digest, fingerprint } from "./_worker_values.ts";

/** The candidate's entry function. */
export type Entry = (...a: unknown[]) => unknown;

/**
 * A measured size's arguments: the value to run on, its fingerprint,
 * whether it is tagged, its digest, and (once known) whether the entry
 * changes it.
 */
export type HeldArgs = [unknown[], string, boolean, number, boolean?];

/** Keeps arguments (wire JSON text) for `measureHeld`. */
export function holdArgs(argsJson: string): HeldArgs {
  // the value to run on and its encoding, to tell whether a sample
  // changed it (then the next sample gets a fresh copy)
  const a = decodeArgs(argsJson) as unknown[];
  const t = argsJson.includes('"$');
  return [a, fingerprint(a, t), t, t ? 0 : digest(a)];
}

/**
 * Calls the entry for its value, then times it: the answer of a timed call.
 *
 * The first call gives the value (and a time of its own); then reps
 * samples, each of as many calls as take sampleMs, give the time per call,
 * and the least of those is the call's time (a sample averages over
 * collections and tier-ups; the least sample drops what other processes
 * did). Every call sees the arguments as they were: if the first call
 * changed them, each later one gets a fresh copy (outside the timing). None
 * once they took budgetMs, and no sample past the third once the samples
 * took cpuBudgetMs of CPU time (0: no such budget) and the last one was
 * not 5 % faster than the best before it. `gate` runs before every
 * sample.
 */
export async function timedCall(
  fn: Entry,
  given: unknown,
  tagged: boolean,
  reps: number,
  { budgetMs, sampleMs, cpuBudgetMs }: {
    budgetMs: number;
    sampleMs: number;
    cpuBudgetMs: number;
  },
  gate: () => Promise<void>,
): Promise<string> {
  let args = given;
  const pristine = fingerprint(args, tagged);
  const sum = tagged ? 0 : digest(args);
  const run = async (): Promise<[unknown, number, number]> => {
    const t0 = now();
    const c0 = clockNow();
    let r = apply(fn, undefined, args as unknown[]);
    if (
      r !== null && typeof r === "object" &&
      typeof (r as Promise<unknown>).then === "function"
    ) r = await r;
    return [r, clockNow() - c0, now() - t0];
  };
  let first: unknown, bestCpu: number, bestWall: number, calls = 1;
  const started = now();
  // each sample's time per call, built by concatenating primitives (no
  // array method a candidate could have patched)
  let per = "";
  try {
    [first, bestCpu, bestWall] = await run();
    let spent = bestWall;
    const mutates = tagged
      ? fingerprint(args, tagged) !== pristine
      : digest(args) !== sum;
    const least = Math.min(3, reps);
    let sampled = 0, gaining = true;
    for (let r = 0; r < reps && spent < budgetMs; r++) {
      if (
        cpuBudgetMs > 0 && r >= least && sampled >= cpuBudgetMs && !gaining
      ) break;
      await gate();
      let cpu = 0, wall = 0, k = 0;
      while (k < 1 || (cpu < sampleMs && k < 1000 && spent < budgetMs)) {
        if (mutates) args = tagged ? decodeArgs(pristine) : parse(pristine);
        const [, c, w] = await run();
        cpu += c;
        wall += w;
        spent += w;
        k++;
      }
      calls += k;
      sampled += cpu;
      // still warming up (a JIT tiering up): the sample beat the best by 5 %
      gaining = cpu / k < 0.95 * bestCpu;
      per += (per === "" ? "" : ",") + cpu / k;
      if (cpu / k < bestCpu) bestCpu = cpu / k;
      if (wall / k < bestWall) bestWall = wall / k;
    }
  } catch (e) {
    return stringify({ ok: false, error: errorText(e) });
  }
  try {
    return '{"ok":true,"ms":' + bestWall + ',"bestMs":' + bestCpu +
      ',"runs":' + calls + ',"samplesMs":[' + per + '],"wallMs":' +
      (now() - started) + ',"v":' +
      encodeResult(first) + "}";
  } catch (e) {
    return stringify({
      ok: false,
      error: "Cannot serialise the return value: " + errorText(e),
    });
  }
}

/**
 * Times the entry on held arguments: `reps` samples of CPU ms per call,
 * the first of which doubles the calls per sample (from `k0`) until a
 * sample takes `minMs`.
 */
export function measureHeld(
  fn: Entry,
  held: HeldArgs,
  reps: number,
  minMs: number,
  k0: number,
): string {
  const out: number[] = [];
  let k = k0 >= 1 ? k0 : 1;
  try {
    for (let r = 0; r < reps; r++) {
      let el: number;
      const a = held[0];
      while (true) {
        // two timings per k while calibrating: a one-off slow run
        // (first call, GC, tier-up) must not fix k too low
        el = Infinity;
        for (let t = 0; t < (r === 0 ? 2 : 1); t++) {
          const t0 = clockNow();
          for (let i = 0; i < k; i++) apply(fn, undefined, a);
          const e = clockNow() - t0;
          if (e < el) el = e;
        }
        if (r > 0 || el >= minMs || k >= 1 << 22) break;
        k *= 2;
      }
      out[out.length] = el / k;
      // whether the entry changes its arguments is checked once per size
      held[4] ??= held[2]
        ? fingerprint(a, true) !== held[1]
        : digest(a) !== held[3];
      if (held[4]) {
        held[0] = (held[2] ? decodeArgs(held[1]) : parse(held[1])) as unknown[];
      }
    }
  } catch (e) {
    return stringify({ ok: false, error: errorText(e) });
  }
  return stringify({ ok: true, ms: out, k });
}
