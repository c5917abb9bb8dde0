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
 * 4. Any number of `{"t":"calls","calls":[wire…]}`,
 *    `{"t":"measure","args":wire,"reps","minMs"}` or
 *    `{"t":"programs","items":[…],"guard":bool}` (Python), each answered.
 *
 * Every answer is written to stdout as `\n<nonce> <json>\n` through
 * functions captured before candidate code runs; the parent takes only
 * framed lines with the right nonce as results, everything else as the
 * candidate's stdout. The candidate never sees the nonce: it arrived on
 * stdin before the candidate's code was loaded, lives only in this module's
 * closure, and is only ever passed to captured functions.
 *
 * @module
 */
import { makeEncoder } from "./_wire.ts";
import { PY_HELPERS } from "./_py_helpers.ts";
import process from "node:process";

// Captured before any candidate code can patch globals.
const stdout = Deno.stdout;
const writeSync = stdout.writeSync.bind(stdout);
const encoder = new TextEncoder();
const encodeText = encoder.encode.bind(encoder);
const decoder = new TextDecoder();
const decodeText = decoder.decode.bind(decoder);
const now = performance.now.bind(performance);
const cpuUsage = process.cpuUsage.bind(process);
/** CPU time of this process in ms (time preempted by other processes is not counted). */
const cpuNow = (): number => {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
};
const parse = JSON.parse;
const stringify = JSON.stringify;
const exit = Deno.exit;
const encodeResult = makeEncoder();
const reader = Deno.stdin.readable.getReader();
const read = reader.read.bind(reader);

const callBound = Function.prototype.call.bind(Function.prototype.call) as (
  f: unknown,
  self: unknown,
  ...args: unknown[]
) => unknown;
const typedProto = Object.getPrototypeOf(Uint8Array.prototype);
const lengthGetter = Object.getOwnPropertyDescriptor(typedProto, "length")!
  .get!;
const subarrayFn = typedProto.subarray;
const lengthOf = (b: Uint8Array) => callBound(lengthGetter, b) as number;
const subarray = (b: Uint8Array, from: number) =>
  callBound(subarrayFn, b, from) as Uint8Array;

/** Writes all bytes through captured functions only (no prototype lookups). */
function writeAll(bytes: Uint8Array): void {
  let off = 0;
  const n = lengthOf(bytes);
  while (off < n) off += writeSync(subarray(bytes, off));
}

// stdin buffer: bytes [start, end) of buf are unread; grows by doubling.
let buf = new Uint8Array(1 << 16);
let start = 0;
let end = 0;
let ended = false;

async function fill(): Promise<boolean> {
  if (ended) return false;
  const { value, done } = await read();
  if (done || !value) {
    ended = true;
    return false;
  }
  if (end + value.length > buf.length) {
    const live = end - start;
    let cap = buf.length;
    while (cap < live + value.length) cap *= 2;
    const next = cap === buf.length ? buf : new Uint8Array(cap);
    next.set(buf.subarray(start, end), 0);
    buf = next;
    start = 0;
    end = live;
  }
  buf.set(value, end);
  end += value.length;
  return true;
}

async function readLine(): Promise<string | null> {
  let from = start;
  while (true) {
    const i = buf.subarray(from, end).indexOf(10);
    if (i >= 0) {
      const line = decodeText(buf.subarray(start, from + i));
      start = from + i + 1;
      return line;
    }
    from = end;
    const offset = from - start;
    if (!await fill()) return null;
    from = start + offset;
  }
}

async function readBytes(n: number): Promise<Uint8Array> {
  while (end - start < n) {
    if (!await fill()) throw new Error("stdin ended inside the snapshot");
  }
  const out = buf.slice(start, start + n);
  start += n;
  return out;
}

function errorText(e: unknown): string {
  try {
    if (e instanceof Error) {
      // deno-lint-ignore no-control-regex
      return (e.name + ": " + e.message).replace(/\x1b\[[0-9;]*m/g, "")
        .slice(0, 2000);
    }
    return ("thrown: " + String(e)).slice(0, 2000);
  } catch {
    return "thrown: (unprintable value)";
  }
}

interface Engine {
  /** Decodes every call's arguments (before the candidate's code loads). */
  prepare(callsJson: string): void;
  load(code: string, entry: string, typescript: boolean): Promise<string>;
  /** Calls the entry with the i-th prepared argument list. */
  call(i: number): Promise<string>;
  /** The same, up to `reps` times on fresh copies, timed in CPU ms. */
  callTimed(i: number, reps: number, budgetMs: number): Promise<string>;
  measure(argsJson: string, reps: number, minMs: number): Promise<string>;
  programs(itemsJson: string, guard: boolean): string;
}

function jsEngine(): Engine {
  let fn: ((...a: unknown[]) => unknown) | undefined;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  let prepared: unknown[] = [];
  let raw: unknown[] = [];
  return {
    prepare(callsJson) {
      raw = parse(callsJson) as unknown[];
      prepared = reviveArgs(raw) as unknown[];
    },
    async load(code, entry, typescript) {
      const exportName = "__sandbox_entry_" +
        Math.random().toString(36).slice(2);
      const source = code + "\n;export const " + exportName +
        " = typeof " + entry + ' === "undefined" ? undefined : ' + entry +
        ";\n";
      const url = "data:" +
        (typescript ? "application/typescript" : "text/javascript") +
        ";base64," + btoa(
          Array.from(encodeText(source), (b) => String.fromCharCode(b)).join(
            "",
          ),
        );
      let mod: Record<string, unknown>;
      try {
        mod = await import(url);
      } catch (e) {
        const text = errorText(e);
        const syntax = /SyntaxError|Expected|Unexpected|Unterminated|parse/i
          .test(text) && !/Requires|NotCapable/.test(text);
        return stringify({
          status: syntax ? "compile_error" : "crash",
          error: syntax ? text : "Cannot run the program: " + text,
        });
      }
      const f = mod[exportName];
      if (typeof f !== "function") {
        return stringify({
          status: "no_entry",
          error: "Cannot find the entry function " + entry +
            ": the program does not define it",
        });
      }
      fn = f as (...a: unknown[]) => unknown;
      return stringify({ status: "ok" });
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
        return stringify({ ok: false, error: errorText(e) });
      }
      try {
        return '{"ok":true,"ms":' + ms + ',"v":' + encodeResult(r) + "}";
      } catch (e) {
        return stringify({
          ok: false,
          error: "Cannot serialise the return value: " + errorText(e),
        });
      }
    },
    async callTimed(i, reps, budgetMs) {
      // Each run gets a fresh copy of the arguments (a candidate may sort
      // them in place); the value is the first run's.
      let args = prepared[i];
      prepared[i] = undefined;
      let bestCpu = Infinity, bestWall = Infinity, spent = 0, runs = 0;
      let first: unknown;
      try {
        while (runs < reps) {
          if (runs > 0) args = reviveArgs(raw[i]);
          const t0 = now();
          const c0 = cpuNow();
          let r = apply(fn!, undefined, args as unknown[]);
          if (
            r !== null && typeof r === "object" &&
            typeof (r as Promise<unknown>).then === "function"
          ) r = await r;
          const c1 = cpuNow();
          const wall = now() - t0;
          if (runs === 0) first = r;
          runs++;
          spent += wall;
          if (wall < bestWall) bestWall = wall;
          if (c1 - c0 < bestCpu) bestCpu = c1 - c0;
          if (spent >= budgetMs) break;
        }
      } catch (e) {
        return stringify({ ok: false, error: errorText(e) });
      }
      raw[i] = undefined;
      try {
        return '{"ok":true,"ms":' + bestWall + ',"cpuMs":' + bestCpu +
          ',"runs":' + runs + ',"v":' + encodeResult(first) + "}";
      } catch (e) {
        return stringify({
          ok: false,
          error: "Cannot serialise the return value: " + errorText(e),
        });
      }
    },
    // deno-lint-ignore require-await
    async measure(argsJson, reps, minMs) {
      const out: number[] = [];
      let k = 1;
      try {
        const x = parse(argsJson);
        for (let r = 0; r < reps; r++) {
          let el: number;
          const a = reviveArgs(x) as unknown[];
          while (true) {
            // two timings per k while calibrating: a one-off slow run
            // (first call, GC, tier-up) must not fix k too low
            el = Infinity;
            for (let t = 0; t < (r === 0 ? 2 : 1); t++) {
              const t0 = cpuNow();
              for (let i = 0; i < k; i++) apply(fn!, undefined, a);
              const e = cpuNow() - t0;
              if (e < el) el = e;
            }
            if (r > 0 || el >= minMs || k >= 1 << 22) break;
            k *= 2;
          }
          out[out.length] = el / k;
        }
      } catch (e) {
        return stringify({ ok: false, error: errorText(e) });
      }
      return stringify({ ok: true, ms: out, k });
    },
    programs() {
      return stringify([]);
    },
  };

  function reviveArgs(x: unknown): unknown {
    if (x === null || typeof x !== "object") return x;
    if (isArray(x)) return (x as unknown[]).map(reviveArgs);
    const o = x as Record<string, unknown>;
    const ks = Object.keys(o);
    if (ks.length === 1) {
      const t = o[ks[0]!];
      if (ks[0] === "$bigint") return BigInt(t as string);
      if (ks[0] === "$float") return Number(t);
      if (ks[0] === "$map") {
        return new Map(
          (t as unknown[][]).map((p) => [reviveArgs(p[0]), reviveArgs(p[1])]),
        );
      }
      if (ks[0] === "$object") return reviveArgs(t);
    }
    const out: Record<string, unknown> = {};
    for (const k of ks) out[k] = reviveArgs(o[k]);
    return out;
  }
}

// deno-lint-ignore no-explicit-any
type Py = any;

async function pyEngine(dir: string): Promise<Engine> {
  const header = await readLine();
  const size = header === null ? 0 : Number(parse(header).snapshot);
  const snapshot = await readBytes(size);
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
  const fCallTimed = sbx.get("call_timed");
  const fMeasure = sbx.get("measure");
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
    // deno-lint-ignore require-await
    async callTimed(i, reps, budgetMs) {
      return fCallTimed(i, reps, budgetMs, cpuNow);
    },
    // deno-lint-ignore require-await
    async measure(argsJson, reps, minMs) {
      return fMeasure(argsJson, reps, minMs, cpuNow);
    },
    programs(itemsJson, guard) {
      return fPrograms(itemsJson, guard);
    },
  };
}

async function main(): Promise<void> {
  const language = Deno.args[0];
  const engine = language === "python"
    ? await pyEngine(Deno.args[1]!)
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
  while (true) {
    const line = await readLine();
    if (line === null) break;
    if (line === "") continue;
    const msg = parse(line);
    if (msg.t === "calls") {
      const timed = msg.timed ?? {};
      for (let i = 0; i < count; i++) {
        const spec = timed[String(i)];
        const r = spec
          ? await engine.callTimed(i, spec[0], spec[1])
          : await engine.call(i);
        send('{"t":"r","i":' + i + ',"r":' + r + "}");
      }
      send('{"t":"end"}');
    } else if (msg.t === "measure") {
      const r = await engine.measure(stringify(msg.args), msg.reps, msg.minMs);
      send('{"t":"m","r":' + r + "}");
    } else if (msg.t === "programs") {
      const r = engine.programs(stringify(msg.items), !!msg.guard);
      send('{"t":"p","r":' + r + "}");
    }
  }
  exit(0);
}

await main();
