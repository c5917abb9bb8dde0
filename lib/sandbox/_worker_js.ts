/**
 * The sandbox worker's JavaScript engine: keeps the decoded arguments of
 * every call, loads the candidate's program and calls, times or measures
 * its entry.
 *
 * @module
 */
import { type Engine, errorText, failure } from "./_worker_engine.ts";
import { apply, encodeResult, now } from "./_worker_captured.ts";
import { loadProgram } from "./_worker_js_load.ts";
import {
  type Entry,
  type HeldArgs,
  heldOf,
  holdArgs,
  SampleTarget,
} from "./_worker_timed.ts";
import { decodeArgs } from "./_worker_values.ts";

/** A JavaScript engine with no program loaded yet. */
export function jsEngine(): Engine {
  let fn: Entry | undefined;
  let prepared: unknown[] = [];
  let tagged = false;
  const stored = new Map<number, HeldArgs>();
  let target: SampleTarget | undefined;
  return {
    prepare(callsJson) {
      tagged = callsJson.includes('"$');
      prepared = decodeArgs(callsJson) as unknown[];
    },
    async load(code, entry, typescript) {
      // a result object, not an array: destructuring an array would run
      // an iterator the candidate's module may just have patched
      const loaded = await loadProgram(code, entry, typescript);
      if (loaded.fn !== undefined) fn = loaded.fn;
      return loaded.answer;
    },
    async call(i) {
      const args = prepared[i];
      prepared[i] = undefined;
      let r: unknown;
      let ms: number;
      try {
        const t0 = now();
        r = apply(fn!, undefined, args as unknown[]);
        ms = now() - t0;
        if (
          r !== null && typeof r === "object" &&
          typeof (r as Promise<unknown>).then === "function"
        ) {
          r = await r;
          ms = now() - t0;
        }
      } catch (e) {
        return failure(errorText(e));
      }
      try {
        return '{"ok":true,"ms":' + ms + ',"v":' + encodeResult(r) + "}";
      } catch (e) {
        return failure("Cannot serialise the return value: " + errorText(e));
      }
    },
    targetCall(i) {
      const args = prepared[i] as unknown[];
      prepared[i] = undefined;
      target = new SampleTarget(heldOf(args, tagged), true);
    },
    putArgs(id, argsJson) {
      stored.set(id, holdArgs(argsJson));
    },
    targetHeld(id) {
      target = new SampleTarget(stored.get(id)!, false);
    },
    prep(k) {
      target!.prep(k);
    },
    run() {
      return target!.run(fn!);
    },
    value() {
      return target!.value();
    },
    programs() {
      return "[]";
    },
  };
}
