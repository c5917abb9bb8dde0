/**
 * The trusted harness of a native Python worker: Debian's CPython started
 * inside bubblewrap as `python3 -I -S -B -c <this> <memoryMb> <nproc>
 * <fileBytes>` (as marshalled code when it could be precompiled:
 * `compileHarness`). It speaks the same stdin/stdout protocol as
 * `_worker.ts` (READY, a nonce-bearing init line, then `calls` / `args` +
 * `measure` / `programs`), with the same Python helpers (`_py_helpers.ts`).
 *
 * Before any candidate code exists it closes every descriptor but stdio
 * (what the parent process inherited without close-on-exec passes through
 * Deno and bubblewrap), installs a seccomp filter (`_seccomp` below: no
 * system call into another process, none that holds memory the parent's
 * resident-set watch cannot see), sets the rlimits (core 0, open
 * files, processes, file size, address space; CPU time from the init
 * line), moves its command channel off fd 0 (`/dev/null` goes there and
 * `sys.stdin` reads as empty, so `input()` raises EOFError at once), and
 * keeps the nonce in a local of its main loop. Result frames
 * `\n<nonce> <json>\n` go through the same buffered stdout object as the
 * candidate's prints (under its lock), after the candidate's pending text,
 * so a thread that prints while a frame is written cannot tear the frame.
 *
 * For `runCode` one process, not a relay plus a fork: the candidate runs
 * in the harness's process. The price is the one Pyodide already pays: a
 * candidate that deliberately introspects its own interpreter (frames,
 * `gc`, `/proc/self/mem`) can find the nonce and forge its own results, as
 * it could rewrite the helpers; it cannot reach another request (every
 * process is single-use) nor anything outside the sandbox. Nothing it
 * merely prints or rebinds (builtins, module attributes: the loop captures
 * what it calls first) can pass for a result.
 *
 * A `programs` batch is a zygote: the loop, which never runs candidate
 * code then, forks a child per program (`forked` below), so no two
 * programs share an interpreter and no program holds a way to the
 * parent's stdout. A fork after `gc.freeze()`, a trivial program, the
 * child's exit and its reaping cost about 5 ms of CPU here (measured
 * with 6 runnable tasks on 2 cores; `gc.freeze()` made no difference at
 * the harness's size), against about 40 ms for a fresh worker.
 *
 * Where a parent-side CPU-time reading would plug in: every timed sample
 * goes through `call_timed` / `measure_id` (`_py_helpers.ts`), called from
 * the `calls` / `measure` branches below, each sample after `gate()`; the
 * process to read `/proc/<pid>/stat` of is this one (the candidate runs
 * in it), bubblewrap's child of the worker's pid.
 *
 * @module
 */
import { output } from "./_backend.ts";
import { PY_HELPERS } from "./_py_helpers.ts";

const MAIN = String.raw`
def _seccomp():
    # Denies (EPERM) the system calls that reach into another process
    # (ptrace, process_vm_*, pidfd_getfd, process_madvise): the sandbox's
    # pid 1 is bubblewrap's init, whose death on the parent's kill takes
    # the sandbox down, and a candidate that could write into it could
    # make it outlive the kill. And those that hold memory outside any
    # process's resident set, where the parent's memory watch cannot see
    # it (memfd_create, memfd_secret, System V shm/sem/msg). Other
    # architectures' system calls (i386 through int 0x80, x32) are denied
    # too. _ctypes only: ctypes itself costs ~8 ms at every start.
    import os, _ctypes
    arch, nrs = {
        "x86_64": (0xC000003E, (101, 310, 311, 438, 440, 319, 447, 29, 64, 68)),
        "aarch64": (0xC00000B7, (117, 270, 271, 438, 440, 279, 447, 194, 190, 186)),
    }[os.uname().machine]
    deny = 4 + len(nrs) + 1
    prog = [(0x20, 0, 0, 4), (0x15, 0, deny - 2, arch), (0x20, 0, 0, 0), (0x35, deny - 4, 0, 0x40000000)]
    prog += [(0x15, deny - 5 - j, 0, nr) for j, nr in enumerate(nrs)]
    prog += [(0x06, 0, 0, 0x7FFF0000), (0x06, 0, 0, 0x00050001)]
    code = b"".join(c.to_bytes(2, "little") + bytes((t, f)) + k.to_bytes(4, "little") for c, t, f, k in prog)

    class Long(_ctypes._SimpleCData):
        _type_ = "l"

    class Ptr(_ctypes._SimpleCData):
        _type_ = "P"

    class CharP(_ctypes._SimpleCData):
        _type_ = "z"

    class Fn(_ctypes.CFuncPtr):
        _flags_ = _ctypes.FUNCFLAG_CDECL
        _restype_ = Long

    class Libc:
        _handle = _ctypes.dlopen(None, 0)

    prctl = Fn(("prctl", Libc))
    held = CharP(code)
    fprog = len(prog).to_bytes(2, "little") + bytes(6) + Ptr.from_buffer(held).value.to_bytes(8, "little")
    # PR_SET_NO_NEW_PRIVS (bubblewrap set it already), PR_SET_SECCOMP filter
    if prctl(Long(38), Long(1), Long(0), Long(0), Long(0)) != 0 or prctl(Long(22), Long(2), fprog) != 0:
        os._exit(6)


def _native_main():
    # Every builtin and module function the loop calls after candidate code
    # exists is captured here, before any: a candidate that rebinds
    # builtins.str (or os.write, ...) cannot reach how frames are built.
    _str, _int, _bool, _len, _type, _range = str, int, bool, len, type, range
    _BaseException, _ChildProcessError, _OSError = BaseException, ChildProcessError, OSError
    _import = __import__
    PRELOAD = ("typing", "math", "random", "copy", "string", "collections", "re", "hashlib", "itertools", "functools", "heapq", "bisect")
    import os, sys, io, resource, time, gc
    _fork, _pipe, _read, _write, _close, _exit = os.fork, os.pipe, os.read, os.write, os.close, os._exit
    _dup2, _open, _waitpid, _kill = os.dup2, os.open, os.waitpid, os.kill
    # Descriptors the parent process inherited without close-on-exec pass
    # through Deno and bubblewrap: none may reach the candidate.
    os.closerange(3, 1 << 20)
    try:
        _seccomp()
    except BaseException:
        os._exit(6)  # not ready: the self-test fails, auto uses Pyodide
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
    exec(_HELPERS_CODE, ns)
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
        except _BaseException:
            pass
        write(nonce + text.encode("utf-8", "surrogatepass") + b"\n")
        flush_raw()

    program, verdict = sbx["program"], sbx["verdict"]

    def forked(item, guarded):
        # One program in a child forked from this loop, which never runs
        # candidate code: the child's state (modules, sys settings, audit
        # hooks, signal handlers, threads, environment) dies with it. The
        # child answers on a pipe of its own; its stdout and stderr are
        # /dev/null and it holds neither the command channel nor a way to
        # the parent's stdout, so the nonce in its copy of this memory is
        # useless to it. The seccomp filter and rlimits are inherited; the
        # CPU-time limit counts per process. After the child, every
        # process it left behind is killed (kill(-1) spares this process
        # and the sandbox's init) before the next program starts.
        code, entry = item["code"], item["entry"]
        if _type(code) is not _str or _type(entry) is not _str:
            return verdict(False, "malformed program")
        r, w = _pipe()
        pid = _fork()
        if pid == 0:
            try:
                _close(r)
                _close(cmd)
                null = _open("/dev/null", os.O_WRONLY)
                _dup2(null, 1)
                _dup2(null, 2)
                _close(null)
                ok, error = program(code, entry, guarded)
                data = (b"1" if ok is True else b"0") + error.encode("utf-8", "replace")[:2048]
            except _BaseException:
                data = b"0exception"
            _write(w, data)
            _exit(0)
        _close(w)
        try:
            _waitpid(pid, 0)
        except _ChildProcessError:
            pass
        for _ in (0, 1):
            try:
                _kill(-1, 9)
            except _OSError:
                break
        data = b""
        while True:
            chunk = _read(r, 4096)
            if not chunk or _len(data) > 8192:
                break
            data += chunk
        _close(r)
        if not data:
            return verdict(False, "the program exited before its verdict")
        return verdict(data[:1] == b"1", data[1:2049].decode("utf-8", "replace"))

    count = 0
    while True:
        if not line:
            _exit(0)
        msg = loads(line.decode("utf-8", "surrogatepass"))
        t = msg.get("t")
        if t == "init":
            cpu = msg.get("cpuS")
            if cpu:
                R.setrlimit(R.RLIMIT_CPU, (_int(cpu), _int(cpu) + 1))
            calls = msg.pop("calls", None)
            if calls is not None:
                count = _len(calls)
                try:
                    sbx["prepare_list"](calls, b'"$' in line)
                except _BaseException as e:
                    send('{"t":"load","r":' + dumps({"status": "crash", "error": "Cannot decode the arguments: " + _str(e)[:500]}) + "}")
                    _exit(0)
            calls = None
            if msg.get("programs"):
                loaded = '{"status":"ok"}'
            else:
                loaded = sbx["load"](msg["code"], msg["entry"])
            send('{"t":"load","r":' + loaded + "}")
            if loads(loaded)["status"] != "ok":
                _exit(0)
        elif t == "calls":
            call, call_timed = sbx["call"], sbx["call_timed"]
            timed = msg.get("timed") or {}
            mode = msg.get("gate")
            gated = [not mode]

            def gate():
                # before the first timed sample (after the call that gives
                # the value), or before each ("each": a timing pair's
                # turns): wait until the parent says go
                if gated[0]:
                    return
                gated[0] = mode != "each"
                send('{"t":"gate"}')
                go = readline()
                while go and b'"go"' not in go:
                    go = readline()

            for i in _range(count):
                spec = timed.get(_str(i))
                r = call_timed(i, spec[0], spec[1], clock, spec[2] if _len(spec) > 2 else 0, gate, spec[3] if _len(spec) > 3 else 0) if spec else call(i)
                send('{"t":"r","i":' + _str(i) + ',"r":' + r + "}")
            send('{"t":"end"}')
        elif t == "args":
            sbx["put_args"](msg["id"], msg["args"], b'"$' in line)
        elif t == "measure":
            r = sbx["measure_id"](msg["id"], msg["reps"], msg["minMs"], clock, msg.get("k", 1))
            send('{"t":"m","r":' + r + "}")
        elif t == "programs":
            guarded = msg.get("guard") is True
            # What HumanEval's programs import, loaded once here rather than
            # in every child (typing alone costs a child ~25 ms); none of
            # them has seen candidate code.
            for name in PRELOAD:
                try:
                    _import(name)
                except _BaseException:
                    pass
            flush_text()
            gc.freeze()  # the children share the loaded harness's pages
            out = []
            for item in msg["items"]:
                # one frame per program, so a batch killed by program k
                # keeps the verdicts before it
                v = forked(item, guarded)
                out.append(v)
                send('{"t":"p1","r":' + v + "}")
            send('{"t":"p","r":[' + ",".join(out) + "]}")
        line = readline()


_native_main()
`;

/**
 * The harness source: the shared helpers (compiled into a code object the
 * main loop executes in a private namespace) and the main loop. This is
 * the harness when it cannot be precompiled (`compileHarness`).
 */
export const NATIVE_HARNESS: string = `_HELPERS_CODE = compile(${
  JSON.stringify(PY_HELPERS)
}, "<helpers>", "exec")\n${MAIN}`;

/**
 * What starts the precompiled harness: its first argument is the base64
 * of `marshal.dumps((main loop, helpers))`, taken off `sys.argv` before
 * the main loop reads its own arguments.
 */
const BOOT =
  "import marshal, binascii, sys\n_HARNESS, _HELPERS_CODE = marshal.loads(binascii.a2b_base64(sys.argv.pop(1)))\nexec(_HARNESS)\n";

const COMPILE =
  'import marshal, binascii, sys\nh = compile(sys.argv[1], "<helpers>", "exec")\nm = compile(sys.argv[2], "<harness>", "exec")\nsys.stdout.write(binascii.b2a_base64(marshal.dumps((m, h)), newline=False).decode())\n';

/** A native worker's `python3 -c` script and the arguments before its own. */
export interface NativeHarness {
  script: string;
  args: string[];
}

/**
 * The harness compiled once by the interpreter that will run it (trusted
 * code, run outside the sandbox like `findNativePython`'s version query)
 * and handed to every worker as marshalled code: compiling the helpers
 * cost each worker 7.6 ms of its ~48 ms start on a 2-core VM (native
 * runs/s of a trivial function: 17.1 from source). Falls back to the
 * source harness when the interpreter cannot compile it (the self-test
 * then runs that one).
 *
 * Hand-written because no library ships a way to start CPython from a
 * marshalled code object; `marshal` is the format CPython's own `.pyc`
 * files hold, valid for the interpreter that wrote it.
 *
 * @param python The interpreter's path.
 * @returns The script and its leading arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileHarness } from "./_py_native.ts";
 * const h = await compileHarness("/nonexistent/python3");
 * assert.equal(h.args.length, 0); // no interpreter: the source harness
 * ```
 */
export async function compileHarness(python: string): Promise<NativeHarness> {
  try {
    const b64 = await output(python, [
      "-I",
      "-S",
      "-B",
      "-c",
      COMPILE,
      PY_HELPERS,
      MAIN,
    ]);
    if (/^[A-Za-z0-9+/=]+$/.test(b64)) return { script: BOOT, args: [b64] };
  } catch {
    // not runnable: the source harness, whose start says why
  }
  return { script: NATIVE_HARNESS, args: [] };
}
