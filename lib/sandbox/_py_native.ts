/**
 * The trusted harness of a native Python worker: Debian's CPython started
 * inside bubblewrap as `python3 -I -S -B -c <this> <memoryMb> <nproc>
 * <fileBytes>` (as marshalled code when it could be precompiled:
 * `compileHarness`). It speaks the same stdin/stdout protocol as
 * `_worker.ts` (READY, a nonce-bearing init line, then `calls`, `args`,
 * `target` and the sample ops `prep` / `run` / `value`, `programs`), with the same Python helpers (`_py_helpers.ts`).
 *
 * Before any candidate code exists it closes every descriptor but stdio
 * (what the parent process inherited without close-on-exec passes through
 * Deno and bubblewrap), joins a fresh session keyring, installs a seccomp
 * filter (`_seccomp` below: no system call into another process, none
 * that holds memory outside the limits, no keyrings, no CPU affinity, no
 * socket but AF_UNIX), sets the rlimits (core 0, open files, processes,
 * file size, memlock, message queues, address space; CPU time from the
 * init line), moves its command channel off fd 0 (`/dev/null` goes there and
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
 * @module
 */
import { output } from "./_backend.ts";
import { PY_HELPERS } from "./_py_helpers.ts";

const MAIN = String.raw`
def _seccomp():
    # Denies (EPERM):
    # - what reaches into another process (ptrace, process_vm_*,
    #   pidfd_getfd, process_madvise): the sandbox's pid 1 is bubblewrap's
    #   init, whose death on the parent's kill takes the sandbox down;
    # - what holds memory outside any process's resident set or the tmpfs
    #   size (memfd_create, memfd_secret, System V shm/sem/msg, extended
    #   attributes: 640 MiB of xattrs fit on one /tmp file), or in the
    #   kernel (io_uring, userfaultfd, bpf, perf_event_open);
    # - the kernel's keyrings (keyctl, add_key, request_key: a session
    #   keyring inherited from the parent, and one request's keys read by
    #   the next);
    # - sched_setaffinity (a worker leaving the CPU it was pinned to while
    #   another request is timed);
    # - socket and socketpair for every family but AF_UNIX (asyncio's
    #   self-pipe needs it): no AF_INET/INET6 buffers on the namespace's
    #   loopback (1 GB queued), no AF_VSOCK to the host VM, no packet or
    #   netlink sockets.
    # Other architectures' system calls (i386 through int 0x80, x32) are
    # denied too. _ctypes only: ctypes itself costs ~8 ms at every start.
    import os, _ctypes
    # x86_64 / aarch64 numbers, name by name (setxattrat, 463, is new in
    # Linux 6.13 and has one number on every architecture)
    names = (
        "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "process_madvise",
        "memfd_create", "memfd_secret", "shmget", "semget", "msgget",
        "setxattr", "lsetxattr", "fsetxattr", "setxattrat",
        "add_key", "request_key", "keyctl", "sched_setaffinity",
        "io_uring_setup", "io_uring_enter", "io_uring_register",
        "userfaultfd", "perf_event_open", "bpf",
    )
    arch, nrs, sockets = {
        "x86_64": (0xC000003E, (101, 310, 311, 438, 440, 319, 447, 29, 64, 68, 188, 189, 190, 463,
                                248, 249, 250, 203, 425, 426, 427, 323, 298, 321), (41, 53)),
        "aarch64": (0xC00000B7, (117, 270, 271, 438, 440, 279, 447, 194, 190, 186, 5, 6, 7, 463,
                                 217, 218, 219, 122, 425, 426, 427, 282, 241, 280), (198, 199)),
    }[os.uname().machine]
    assert len(names) == len(nrs)
    # A classic BPF program, assembled with labels: (code, jt, jf, k),
    # where jt/jf name a label ("deny", "allow", "unix") or 0 (next).
    LD, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
    prog = [(LD, 0, 0, 4), (JEQ, 0, "deny", arch), (LD, 0, 0, 0), (JGE, "deny", 0, 0x40000000)]
    prog += [(JEQ, "deny", 0, nr) for nr in nrs]
    prog += [(JEQ, "unix", 0, nr) for nr in sockets]
    prog += [(RET, 0, 0, 0x7FFF0000)]  # allow
    # unix: the first argument (its low 32 bits) must be AF_UNIX (jumps
    # only go forward: a second allow after it)
    labels = {"unix": len(prog)}
    prog += [(LD, 0, 0, 16), (JEQ, 0, "deny", 1), (RET, 0, 0, 0x7FFF0000)]
    labels["deny"] = len(prog)
    prog += [(RET, 0, 0, 0x00050001)]  # errno EPERM
    jump = lambda i, t: 0 if t == 0 else labels[t] - i - 1
    code = b"".join(c.to_bytes(2, "little") + bytes((jump(i, t), jump(i, f))) + k.to_bytes(4, "little") for i, (c, t, f, k) in enumerate(prog))

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

    # A fresh anonymous session keyring first (KEYCTL_JOIN_SESSION_KEYRING
    # with no name), so a keyring the parent's session holds is out of
    # reach even if the keyctl rule below did not hold.
    Fn(("syscall", Libc))(Long(250 if arch == 0xC000003E else 219), Long(1), Long(0))
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
    import os, sys, io, resource, gc
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
    # memlock and message queues set, not inherited: no memory locked
    # beyond a page's worth, no POSIX message queue bytes
    limits = ((R.RLIMIT_CORE, 0), (R.RLIMIT_NOFILE, 64), (R.RLIMIT_NPROC, nproc), (R.RLIMIT_FSIZE, fsize),
              (R.RLIMIT_MEMLOCK, 4096), (R.RLIMIT_MSGQUEUE, 0))
    for lim, val in limits:
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

    target_call, target_held = sbx["target_call"], sbx["target_held"]
    prep, run, value = sbx["prep"], sbx["run"], sbx["value"]
    SAMPLE_OPS = ("prep", "run", "value")

    def sample_op(t, msg):
        # "prep": k calls made ready; "run": they run while the parent
        # reads this process's CPU time around the round trip; "value":
        # the first call's value
        if t == "prep":
            prep(msg["k"])
            send('{"t":"ready"}')
        elif t == "run":
            send('{"t":"done","r":' + run() + "}")
        else:
            send('{"t":"v","r":' + value() + "}")

    def serve():
        # a timed call's samples, until the parent says "next"
        while True:
            got = readline()
            if not got:
                _exit(0)
            m = loads(got.decode("utf-8", "surrogatepass"))
            k = m.get("t")
            if k == "next":
                return
            if k in SAMPLE_OPS:
                sample_op(k, m)

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
            call = sbx["call"]
            timed = msg.get("timed") or {}
            for i in _range(count):
                if _str(i) in timed:
                    # the parent drives the timed call's samples (serve)
                    target_call(i)
                    send('{"t":"timed","i":' + _str(i) + "}")
                    serve()
                else:
                    send('{"t":"r","i":' + _str(i) + ',"r":' + call(i) + "}")
            send('{"t":"end"}')
        elif t == "args":
            sbx["put_args"](msg["id"], msg["args"], b'"$' in line)
        elif t == "target":
            target_held(msg["h"])
        elif t in SAMPLE_OPS:
            sample_op(t, msg)
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
