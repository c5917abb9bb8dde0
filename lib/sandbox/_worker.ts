/**
 * The child-process side of the sandbox (trusted code). Started by
 * `_process.ts` as `deno run <no permissions> _worker.ts <language> [dir]`;
 * it is the only code that runs before the candidate's.
 *
 * Protocol (stdin, one JSON object per line):
 * 1. Python only: `{"snapshot": <bytes>}` followed by that many raw bytes of
 *    a Pyodide memory snapshot made by a trusted child; the worker restores
 *    a fresh interpreter from it.
 * 2. The worker prints `READY\n` (nothing else has run yet).
 * 3. `{"nonce", "code", "entry", "typescript"?}`: the worker keeps the nonce
 *    in a local variable, loads the program and answers `load`.
 * 4. Any number of `{"t":"calls","timed":{…}}` (each call answered `r`;
 *    at a timed call the worker answers `timed` and serves sample ops
 *    until `{"t":"next"}`), `{"t":"args","id","args":wire}` (kept, no
 *    answer), `{"t":"target","h":id}` (no answer), the sample ops
 *    `{"t":"prep","k"}` (`ready`), `{"t":"run"}` (`done`), `{"t":"value"}`
 *    (`v`), or `{"t":"programs","items":[…],"guard":bool}` (Python).
 *    The parent times samples itself, from the kernel's account of this
 *    process's CPU time.
 *
 * Every answer is written to stdout as `\n<nonce> <json>\n` through
 * functions captured before candidate code runs; the parent takes only
 * framed lines with the right nonce as results, everything else as the
 * candidate's stdout. The candidate never sees the nonce: it arrived on
 * stdin before the candidate's code was loaded, lives only in this module's
 * closure, and is only ever passed to captured functions.
 *
 * This file holds the protocol loop; its parts live beside it in
 * `_worker_*.ts` (captured globals, the stdin reader, the engines and what
 * they use). They are static imports, so all that they capture at their
 * top level is captured before this module's body runs, and so before any
 * candidate code.
 *
 * @module
 */
import {
  encodeText,
  exit,
  own,
  parse,
  stringify,
  stringifyOwn,
  writeAll,
} from "./_worker_captured.ts";
import { errorText } from "./_worker_engine.ts";
import { jsEngine } from "./_worker_js.ts";
import { pyEngine } from "./_worker_py.ts";
import { openStdin } from "./_worker_stdin.ts";

// Locked to the worker's reader before anything else runs.
const stdin = openStdin();
const readLine = stdin.readLine;

async function main(): Promise<void> {
  const language = Deno.args[0];
  const engine = language === "python"
    ? await pyEngine(Deno.args[1]!, stdin)
    : jsEngine();
  writeAll(encodeText("READY\n"));
  const first = await readLine();
  if (first === null) exit(0);
  const init = parse(first!);
  const nonce: string = init.nonce;
  const send = (json: string) =>
    writeAll(encodeText("\n" + nonce + " " + json + "\n"));
  // `{"nonce", "programs": true}`: no program of its own (HumanEval batches).
  let count = 0;
  if (init.calls) {
    count = init.calls.length;
    try {
      engine.prepare(stringify(init.calls));
    } catch (e) {
      send(
        '{"t":"load","r":' +
          stringify({
            status: "crash",
            error: "Cannot decode the arguments: " + errorText(e),
          }) + "}",
      );
      exit(0);
    }
  }
  const loaded = init.programs
    ? '{"status":"ok"}'
    : await engine.load(init.code, init.entry, !!init.typescript);
  send('{"t":"load","r":' + loaded + "}");
  if (parse(loaded).status !== "ok") exit(0);
  // "prep": k calls made ready; "run": they run while the parent reads
  // this process's CPU time around the round trip; "value": the first
  // call's value.
  // deno-lint-ignore no-explicit-any
  const sampleOp = async (m: any) => {
    const t = own(m, "t");
    if (t === "prep") {
      engine.prep(own(m, "k") as number);
      send('{"t":"ready"}');
    } else if (t === "run") {
      send('{"t":"done","r":' + await engine.run() + "}");
    } else if (t === "value") send('{"t":"v","r":' + engine.value() + "}");
  };
  while (true) {
    const line = await readLine();
    if (line === null) break;
    if (line === "") continue;
    const msg = parse(line);
    // Messages are read through own(): candidate code has run by now, and
    // a key the parent left out must not reach its Object.prototype getter.
    const t = own(msg, "t");
    if (t === "calls") {
      const timed = own(msg, "timed");
      for (let i = 0; i < count; i++) {
        if (own(timed, "" + i)) {
          // the parent drives the timed call's samples until "next"
          engine.targetCall(i);
          send('{"t":"timed","i":' + i + "}");
          while (true) {
            const l = await readLine();
            if (l === null) exit(0);
            if (l === "") continue;
            const m = parse(l!);
            if (own(m, "t") === "next") break;
            await sampleOp(m);
          }
        } else {
          send('{"t":"r","i":' + i + ',"r":' + await engine.call(i) + "}");
        }
      }
      send('{"t":"end"}');
    } else if (t === "args") {
      engine.putArgs(own(msg, "id") as number, stringifyOwn(own(msg, "args")));
    } else if (t === "target") {
      engine.targetHeld(own(msg, "h") as number);
    } else if (t === "prep" || t === "run" || t === "value") {
      await sampleOp(msg);
    } else if (t === "programs") {
      const r = engine.programs(
        stringifyOwn(own(msg, "items")),
        own(msg, "guard") === true,
      );
      send('{"t":"p","r":' + r + "}");
    }
  }
  exit(0);
}

await main();
