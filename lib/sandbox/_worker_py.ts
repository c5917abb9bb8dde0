/**
 * The sandbox worker's Python engine: restores a Pyodide interpreter from
 * the memory snapshot sent on stdin, sends its stdout through the worker's
 * captured writer, and answers through the `_sbx` helpers of
 * `_py_helpers.ts` (taken out of the interpreter's globals before any
 * candidate code runs).
 *
 * @module
 */
import { PY_HELPERS } from "./_py_helpers.ts";
import type { Engine } from "./_worker_engine.ts";
import { parse, writeAll } from "./_worker_captured.ts";
import type { WorkerStdin } from "./_worker_stdin.ts";

// deno-lint-ignore no-explicit-any
type Py = any;

/** Reads the snapshot from stdin and starts a Python engine from it. */
export async function pyEngine(
  dir: string,
  stdin: WorkerStdin,
): Promise<Engine> {
  const header = await stdin.readLine();
  const size = header === null ? 0 : Number(parse(header).snapshot);
  const snapshot = await stdin.readBytes(size);
  const { loadPyodide } = await import("file://" + dir + "/pyodide.mjs");
  const py: Py = await loadPyodide({
    indexURL: dir + "/",
    _loadSnapshot: snapshot,
    stdout: undefined,
  });
  py.setStdout({ write: (b: Uint8Array) => (writeAll(b), b.length) });
  py.setStderr({
    write: (b: Uint8Array) => {
      let off = 0;
      while (off < b.length) off += Deno.stderr.writeSync(b.subarray(off));
      return b.length;
    },
  });
  py.runPython(PY_HELPERS);
  const sbx = py.globals.get("_sbx");
  const fPrepare = sbx.get("prepare");
  const fLoad = sbx.get("load");
  const fCall = sbx.get("call");
  const fTargetCall = sbx.get("target_call");
  const fTargetHeld = sbx.get("target_held");
  const fPrep = sbx.get("prep");
  const fRun = sbx.get("run");
  const fValue = sbx.get("value");
  const fPutArgs = sbx.get("put_args_json");
  const fPrograms = sbx.get("programs");
  py.runPython("del _sbx");
  return {
    prepare(callsJson) {
      fPrepare(callsJson);
    },
    // deno-lint-ignore require-await
    async load(code, entry) {
      return fLoad(code, entry);
    },
    // deno-lint-ignore require-await
    async call(i) {
      return fCall(i);
    },
    targetCall(i) {
      fTargetCall(i);
    },
    putArgs(id, argsJson) {
      fPutArgs(id, argsJson);
    },
    targetHeld(id) {
      fTargetHeld(id);
    },
    prep(k) {
      fPrep(k);
    },
    // deno-lint-ignore require-await
    async run() {
      return fRun();
    },
    value() {
      return fValue();
    },
    programs(itemsJson, guard) {
      return fPrograms(itemsJson, guard);
    },
  };
}
