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
 * 4. Any number of `{"t":"calls","timed":{…}}`,
 *    `{"t":"args","id","args":wire}` (kept, no answer),
 *    `{"t":"measure","id","reps","minMs","k"}` or
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
/**
 * The clock timed runs use: this process's CPU time in ms (time preempted
 * by other processes does not count). JavaScript workers run V8
 * single-threaded, so it is the candidate's own; in Pyodide workers it
 * also counts V8's background threads.
 */
const clockNow = (): number => {
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

/** The worker's quiet-machine gate for the timed call now running. */
let gateNow: () => Promise<void> = () => Promise.resolve();

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
  callTimed(
    i: number,
    reps: number,
    budgetMs: number,
    sampleMs: number,
  ): Promise<string>;
  /** Keeps a measured size's arguments (wire JSON text) under an id. */
  putArgs(id: number, argsJson: string): void;
  /** Times the entry on the arguments kept under `id`. */
  measure(id: number, reps: number, minMs: number, k0: number): Promise<string>;
  programs(itemsJson: string, guard: boolean): string;
}

function jsEngine(): Engine {
  let fn: ((...a: unknown[]) => unknown) | undefined;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  let prepared: unknown[] = [];
  let tagged = false;
  const stored = new Map<
    number,
    [unknown[], string, boolean, number, boolean?]
  >();
  // Without tagged values (bigints, maps, NaN) parsed JSON is the value,
  // and JSON.stringify (native, far faster than the wire encoder) tells
  // whether a run changed it.
  const decode = (json: string) => {
    const x = parse(json);
    return json.includes('"$') ? reviveArgs(x) : x;
  };
  const fingerprint = (value: unknown, tagged: boolean) =>
    tagged ? encodeResult(value) : stringify(value);
  // Whether a run changed plain-JSON arguments, without allocating (an
  // allocation here would trigger collections that land inside the next
  // timed run): a hash of every number, string and length, in order.
  const digest = (value: unknown): number => {
    let h = 0x811c9dc5;
    const mix = (x: number) => {
      h = Math.imul(h ^ (x | 0), 0x01000193);
      h = Math.imul(h ^ ((x / 4294967296) | 0), 0x01000193);
    };
    const walk = (v: unknown): void => {
      if (typeof v === "number") mix(v === v ? v : 0x7ff80000);
      else if (typeof v === "string") {
        mix(v.length);
        for (let i = 0; i < v.length; i++) mix(v.charCodeAt(i));
      } else if (typeof v === "boolean") mix(v ? 3 : 5);
      else if (v === null) mix(7);
      else if (isArray(v)) {
        const a = v as unknown[];
        mix(a.length + 11);
        for (let i = 0; i < a.length; i++) walk(a[i]);
      } else if (typeof v === "object") {
        for (const k in v as Record<string, unknown>) {
          walk(k);
          walk((v as Record<string, unknown>)[k]);
        }
        mix(13);
      }
    };
    walk(value);
    return h;
  };
  return {
    prepare(callsJson) {
      tagged = callsJson.includes('"$');
      prepared = decode(callsJson) as unknown[];
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
    async callTimed(i, reps, budgetMs, sampleMs) {
      // The first call gives the value (and a time of its own); then reps
      // samples, each of as many calls as take sampleMs, give the time per
      // call, and the least of those is the call's time (a sample
      // averages over collections and tier-ups; the least sample drops
      // what other processes did). Every call sees the arguments as they
      // were: if the first call changed them, each later one gets a fresh
      // copy (outside the timing). None once they took budgetMs.
      let args = prepared[i];
      prepared[i] = undefined;
      const pristine = fingerprint(args, tagged);
      const sum = tagged ? 0 : digest(args);
      const run = async (): Promise<[unknown, number, number]> => {
        const t0 = now();
        const c0 = clockNow();
        let r = apply(fn!, undefined, args as unknown[]);
        if (
          r !== null && typeof r === "object" &&
          typeof (r as Promise<unknown>).then === "function"
        ) r = await r;
        return [r, clockNow() - c0, now() - t0];
      };
      let first: unknown, bestCpu: number, bestWall: number, calls = 1;
      try {
        [first, bestCpu, bestWall] = await run();
        let spent = bestWall;
        const mutates = tagged
          ? fingerprint(args, tagged) !== pristine
          : digest(args) !== sum;
        if (reps > 0 && spent < budgetMs) await gateNow();
        for (let r = 0; r < reps && spent < budgetMs; r++) {
          let cpu = 0, wall = 0, k = 0;
          while (k < 1 || (cpu < sampleMs && k < 1000 && spent < budgetMs)) {
            if (mutates) args = tagged ? decode(pristine) : parse(pristine);
            const [, c, w] = await run();
            cpu += c;
            wall += w;
            spent += w;
            k++;
          }
          calls += k;
          if (cpu / k < bestCpu) bestCpu = cpu / k;
          if (wall / k < bestWall) bestWall = wall / k;
        }
      } catch (e) {
        return stringify({ ok: false, error: errorText(e) });
      }
      try {
        return '{"ok":true,"ms":' + bestWall + ',"bestMs":' + bestCpu +
          ',"runs":' + calls + ',"v":' + encodeResult(first) + "}";
      } catch (e) {
        return stringify({
          ok: false,
          error: "Cannot serialise the return value: " + errorText(e),
        });
      }
    },
    putArgs(id, argsJson) {
      // the value to run on and its encoding, to tell whether a sample
      // changed it (then the next sample gets a fresh copy)
      const a = decode(argsJson) as unknown[];
      const t = argsJson.includes('"$');
      stored.set(id, [a, fingerprint(a, t), t, t ? 0 : digest(a)]);
    },
    // deno-lint-ignore require-await
    async measure(id, reps, minMs, k0) {
      const out: number[] = [];
      let k = k0 >= 1 ? k0 : 1;
      try {
        const held = stored.get(id)!;
        for (let r = 0; r < reps; r++) {
          let el: number;
          const a = held[0];
          while (true) {
            // two timings per k while calibrating: a one-off slow run
            // (first call, GC, tier-up) must not fix k too low
            el = Infinity;
            for (let t = 0; t < (r === 0 ? 2 : 1); t++) {
              const t0 = clockNow();
              for (let i = 0; i < k; i++) apply(fn!, undefined, a);
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
            held[0] = (held[2] ? decode(held[1]) : parse(held[1])) as unknown[];
          }
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
  const fPutArgs = sbx.get("put_args_json");
  const fMeasure = sbx.get("measure_id");
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
    async callTimed(i, reps, budgetMs, sampleMs) {
      return fCallTimed(i, reps, budgetMs, clockNow, sampleMs);
    },
    putArgs(id, argsJson) {
      fPutArgs(id, argsJson);
    },
    // deno-lint-ignore require-await
    async measure(id, reps, minMs, k0) {
      return fMeasure(id, reps, minMs, clockNow, k0);
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
      let gated = !msg.gate;
      // Waits until the parent says the machine is quiet: in JavaScript
      // after the call that gives the value, before the timed samples; in
      // Pyodide (whose Python cannot wait on stdin) before the timed call.
      const gate = async () => {
        if (gated) return;
        gated = true;
        send('{"t":"gate"}');
        let go: string | null;
        do go = await readLine(); while (go !== null && !go.includes('"go"'));
      };
      for (let i = 0; i < count; i++) {
        const spec = timed[String(i)];
        if (spec && language === "python") await gate();
        if (spec) gateNow = gate;
        const r = spec
          ? await engine.callTimed(i, spec[0], spec[1], spec[2] ?? 0)
          : await engine.call(i);
        send('{"t":"r","i":' + i + ',"r":' + r + "}");
      }
      send('{"t":"end"}');
    } else if (msg.t === "args") {
      engine.putArgs(msg.id, stringify(msg.args));
    } else if (msg.t === "measure") {
      const r = await engine.measure(msg.id, msg.reps, msg.minMs, msg.k ?? 1);
      send('{"t":"m","r":' + r + "}");
    } else if (msg.t === "programs") {
      const r = engine.programs(stringify(msg.items), !!msg.guard);
      send('{"t":"p","r":' + r + "}");
    }
  }
  exit(0);
}

await main();
