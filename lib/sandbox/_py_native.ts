/**
 * The trusted harness of a native Python worker: Debian's CPython started
 * inside bubblewrap as `python3 -I -S -B -c <this> <memoryMb> <nproc>
 * <fileBytes>`. It speaks the same stdin/stdout protocol as `_worker.ts`
 * (READY, a nonce-bearing init line, then `calls` / `measure` /
 * `programs`), with the same Python helpers (`_py_helpers.ts`).
 *
 * Before any candidate code exists it sets the rlimits (core 0, open
 * files, processes, file size, address space; CPU time from the init
 * line), moves its command channel off fd 0 (`/dev/null` goes there and
 * `sys.stdin` reads as empty, so `input()` raises EOFError at once), and
 * keeps the nonce in a local of its main loop. Result frames
 * `\n<nonce> <json>\n` go through the same buffered stdout object as the
 * candidate's prints (under its lock), after the candidate's pending text,
 * so a thread that prints while a frame is written cannot tear the frame.
 *
 * One process, not a relay plus a fork: here a fork costs as much as a
 * fresh interpreter (about 18 ms), which would halve the runs per second.
 * The price is the one Pyodide already pays: a candidate that deliberately
 * introspects its own interpreter (frames, `gc`, `/proc/self/mem`) can
 * find the nonce and forge its own results, as it could rewrite the
 * helpers; it cannot reach another request (every process is single-use)
 * nor anything outside the sandbox. Nothing it merely prints can pass for
 * a result.
 *
 * @module
 */
import { PY_HELPERS } from "./_py_helpers.ts";

const MAIN = String.raw`
def _native_main():
    import os, sys, io, resource, time
    argv = sys.argv
    memory_mb, nproc, fsize = int(argv[1]), int(argv[2]), int(argv[3])
    R = resource
    for lim, val in ((R.RLIMIT_CORE, 0), (R.RLIMIT_NOFILE, 64), (R.RLIMIT_NPROC, nproc), (R.RLIMIT_FSIZE, fsize)):
        R.setrlimit(lim, (val, val))
    # Address space: what the interpreter maps now plus twice the request's
    # memory and some room; the parent's resident-memory watch normally
    # fires first, this is the backstop.
    with open("/proc/self/statm") as f:
        size_mb = int(f.read().split()[0]) * 4096 // (1 << 20)
    cap = (size_mb + memory_mb * 2 + 256) << 20
    R.setrlimit(R.RLIMIT_AS, (cap, cap))
    cmd = os.dup(0)
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = io.StringIO("")
    text_out = sys.stdout
    raw_out = text_out.buffer
    write, flush_raw, flush_text = raw_out.write, raw_out.flush, text_out.flush
    ns = {"__name__": "_sbx_helpers"}
    exec(compile(_HELPERS, "<helpers>", "exec"), ns)
    sbx = ns["_sbx"]
    del ns
    loads, dumps = sbx["loads"], sbx["dumps"]
    # The main thread's CPU clock: with an RLIMIT_CPU in force the kernel
    # reads the process-wide clock only at scheduler ticks (4 ms here),
    # while the thread clock stays exact.
    thread_time = time.thread_time
    clock = lambda: thread_time() * 1000
    readline = os.fdopen(cmd, "rb", 1 << 16).readline
    write(b"READY\n")
    flush_raw()
    first = readline()
    # {"nonce":"<32 hex>",...}: the nonce stays here, the rest is the init
    if first[:10] != b'{"nonce":"' or first[42:43] != b'"':
        os._exit(5)
    nonce = b"\n" + first[10:42] + b" "
    line = b'{"t":"init"' + first[43:]
    del first

    def send(text):
        try:
            flush_text()  # the candidate's pending prints come first
        except BaseException:
            pass
        write(nonce + text.encode("utf-8", "surrogatepass") + b"\n")
        flush_raw()

    count = 0
    while True:
        if not line:
            os._exit(0)
        msg = loads(line.decode("utf-8", "surrogatepass"))
        t = msg.get("t")
        if t == "init":
            cpu = msg.get("cpuS")
            if cpu:
                R.setrlimit(R.RLIMIT_CPU, (int(cpu), int(cpu) + 1))
            calls = msg.pop("calls", None)
            if calls is not None:
                count = len(calls)
                try:
                    sbx["prepare_list"](calls)
                except BaseException as e:
                    send('{"t":"load","r":' + dumps({"status": "crash", "error": "Cannot decode the arguments: " + str(e)[:500]}) + "}")
                    os._exit(0)
            calls = None
            if msg.get("programs"):
                loaded = '{"status":"ok"}'
            else:
                loaded = sbx["load"](msg["code"], msg["entry"])
            send('{"t":"load","r":' + loaded + "}")
            if loads(loaded)["status"] != "ok":
                os._exit(0)
        elif t == "calls":
            call, call_timed = sbx["call"], sbx["call_timed"]
            timed = msg.get("timed") or {}
            for i in range(count):
                spec = timed.get(str(i))
                r = call_timed(i, spec[0], spec[1], clock) if spec else call(i)
                send('{"t":"r","i":' + str(i) + ',"r":' + r + "}")
            send('{"t":"end"}')
        elif t == "measure":
            r = sbx["measure"](dumps(msg["args"]), msg["reps"], msg["minMs"], clock)
            send('{"t":"m","r":' + r + "}")
        elif t == "programs":
            r = sbx["programs"](dumps(msg["items"]), bool(msg.get("guard")))
            send('{"t":"p","r":' + r + "}")
        line = readline()


_native_main()
`;

/**
 * The harness source: the shared helpers (a string the harness compiles
 * into a private namespace) and the main loop.
 */
export const NATIVE_HARNESS: string = `_HELPERS = ${
  JSON.stringify(PY_HELPERS)
}\n${MAIN}`;
