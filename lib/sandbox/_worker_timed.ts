/**
 * The JavaScript worker's side of timed samples, which the parent drives:
 * it picks a target (a call's arguments, or a measured size's held
 * arguments), asks for k calls to be prepared, and reads this process's
 * CPU time from the kernel around `run`. Nothing here reads a clock or
 * reports a time, so a candidate that patches anything it can reach
 * changes no timing.
 *
 * @module
 */
import { errorText } from "./_worker_engine.ts";
import {
  apply,
  encodeResult,
  parse,
  stringifyOwn as stringify,
} from "./_worker_captured.ts";
import { decodeArgs, digest, fingerprint } from "./_worker_values.ts";

/** The candidate's entry function. */
export type Entry = (...a: unknown[]) => unknown;

/**
 * Arguments to sample on: the value to run on, its fingerprint, whether
 * it is tagged, its digest, whether the entry changes it (once known) and
 * whether it ran since its last fresh copy.
 */
export type HeldArgs = [unknown[], string, boolean, number, boolean?, boolean?];

/** Keeps arguments (wire JSON text) for samples on held arguments. */
export function holdArgs(argsJson: string): HeldArgs {
  const a = decodeArgs(argsJson) as unknown[];
  return heldOf(a, argsJson.includes('"$'));
}

/** Decoded arguments as `HeldArgs`. */
export function heldOf(a: unknown[], tagged: boolean): HeldArgs {
  return [a, fingerprint(a, tagged), tagged, tagged ? 0 : digest(a)];
}

function changed(held: HeldArgs): boolean {
  return held[2]
    ? fingerprint(held[0], true) !== held[1]
    : digest(held[0]) !== held[3];
}

function fresh(held: HeldArgs): unknown[] {
  return (held[2] ? decodeArgs(held[1]) : parse(held[1])) as unknown[];
}

/** A sampling target: per call (a fresh copy per call) or per sample. */
export class SampleTarget {
  /** The next run: k calls on `args`, or one per fresh copy. */
  private args: unknown[] = [];
  private k = 0;
  private copies: unknown[][] = [];
  private first: unknown = undefined;
  private runs = 0;

  /**
   * @param held The arguments.
   * @param perCall Every call on a fresh copy when the entry changes
   *   them (a timed call); else one copy per sample (a measured size).
   */
  constructor(private held: HeldArgs, private perCall: boolean) {}

  /** Gets k calls ready: outside the timed window. */
  prep(k: number): void {
    const h = this.held;
    if (h[5]) {
      // whether the entry changes its arguments is checked once
      h[4] ??= changed(h);
      if (h[4] && !this.perCall) h[0] = fresh(h);
      h[5] = false;
    }
    const copies: unknown[][] = [];
    if (this.perCall && h[4]) {
      for (let i = 0; i < k; i++) copies[i] = fresh(h);
      this.k = 0;
    } else {
      this.args = h[0];
      this.k = k;
    }
    this.copies = copies;
  }

  /** Runs the prepared calls; the first call's value is kept. */
  async run(fn: Entry): Promise<string> {
    const { copies, args, k } = this;
    this.copies = [];
    this.k = 0;
    if (copies.length + k === 0) return '{"ok":true}'; // a round trip's own cost
    try {
      for (let i = 0; i < copies.length + k; i++) {
        let r = apply(fn, undefined, i < copies.length ? copies[i]! : args);
        if (
          r !== null && typeof r === "object" &&
          typeof (r as Promise<unknown>).then === "function"
        ) r = await r;
        // the first call gives the value; later results are dropped at
        // once, as a caller's would be
        if (this.runs === 0 && i === 0) this.first = r;
      }
    } catch (e) {
      return stringify({ ok: false, error: errorText(e) });
    }
    this.runs++;
    this.held[5] = true;
    return '{"ok":true}';
  }

  /** The first call's value, as a call answer. */
  value(): string {
    const v = this.first;
    this.first = undefined;
    try {
      return '{"ok":true,"v":' + encodeResult(v) + "}";
    } catch (e) {
      return stringify({
        ok: false,
        error: "Cannot serialise the return value: " + errorText(e),
      });
    }
  }
}
