/**
 * The native backend's start-up self-test: before a pool runs any Python
 * candidate natively, one probe program runs in a fresh native worker and
 * must find the sandbox closed — no network interface but loopback and no
 * route out, no write outside its tmpfs, none of the project's files, no
 * `/etc/passwd`, no environment (its own or bubblewrap's), no process
 * outside its own namespace, not root, no way into another process (a
 * ptrace attach to the sandbox's pid 1, a writable `/proc/1/mem`) and no
 * memory outside the resident-set watch (`memfd_create`). Anything else,
 * and `auto` falls back to Pyodide (`native` refuses to start).
 *
 * @module
 */
import type { Lease } from "./_pool.ts";
import { type Launch, WorkerProcess } from "./_process.ts";
import { runOn } from "./_run.ts";
import { encodeValue } from "./_wire.ts";

const PROJECT_FILE = new URL("../../deno.json", import.meta.url).pathname;

/** The probe: returns the list of things it could do that it must not. */
const PROBE = String.raw`
import os, socket

def probe(paths):
    bad = []
    try:
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
        bad.append("an AF_INET socket")
        names = [n for _, n in socket.if_nameindex()]
        if names != ["lo"]:
            bad.append("network interfaces " + ",".join(names))
        s = socket.create_connection(("1.1.1.1", 53), timeout=0.5)
        s.close()
        bad.append("an outside connection")
    except OSError:
        pass
    try:
        with open("/tmp/probe-x", "w") as f:
            f.write("x")
        os.setxattr("/tmp/probe-x", "user.probe", b"x")
        bad.append("setxattr")
    except OSError:
        pass
    for p in ["/probe", "/usr/probe", "/dev/probe"]:
        try:
            with open(p, "w") as f:
                f.write("x")
            bad.append("a write to " + p)
        except OSError:
            pass
    try:
        with open("/tmp/probe", "w") as f:
            f.write("x")
    except OSError:
        bad.append("no writable /tmp")
    for p in paths:
        try:
            with open(p, "rb") as f:
                f.read(1)
            bad.append("a read of " + p)
        except OSError:
            pass
    env = sorted(k for k in os.environ if k not in ("PWD", "LC_CTYPE"))
    if env:
        bad.append("environment variables " + ",".join(env))
    if os.getuid() == 0:
        bad.append("uid 0")
    import ctypes
    libc = ctypes.CDLL(None)
    if libc.ptrace(16, 1, None, None) == 0:  # PTRACE_ATTACH
        libc.ptrace(17, 1, None, None)  # PTRACE_DETACH
        bad.append("a ptrace attach to pid 1")
    try:
        os.close(os.open("/proc/1/mem", os.O_RDONLY))
        bad.append("a readable /proc/1/mem")
    except OSError:
        pass
    try:
        os.close(os.memfd_create("probe"))
        bad.append("memfd_create")
    except OSError:
        pass
    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    if len(pids) > 8:
        bad.append(str(len(pids)) + " processes visible")
    for pid in pids:
        try:
            with open("/proc/" + pid + "/environ", "rb") as f:
                keys = [e.split(b"=")[0] for e in f.read().split(b"\0") if e]
            if [k for k in keys if k not in (b"PWD", b"LC_CTYPE")]:
                bad.append("an environment in /proc/" + pid + "/environ")
        except OSError:
            pass
    return bad
`;

/**
 * Runs the probe in a fresh native worker.
 *
 * @param launch The native worker's command line for a memory limit.
 * @returns null when the sandbox held, else what went wrong.
 */
export async function selfTestNative(
  launch: (memoryMb: number) => Launch,
): Promise<string | null> {
  let w: WorkerProcess;
  try {
    // kept referenced: the caller awaits it
    w = new WorkerProcess(launch(64), false);
  } catch (error) {
    return `cannot start bubblewrap (${
      error instanceof Error ? error.message : error
    })`;
  }
  try {
    await w.ready;
  } catch (error) {
    w.kill("closed");
    return `the native worker did not start: ${
      error instanceof Error ? error.message : error
    }`.slice(0, 600);
  }
  const lease: Lease = {
    worker: w,
    release: () => w.kill("closed"),
    quiet: () => Promise.resolve(),
    park: () => {},
    cpu: () => undefined,
    follow: () => {},
  };
  const paths = [PROJECT_FILE, "/etc/passwd", "/root/.bashrc"];
  const r = await runOn(
    lease,
    { language: "python", code: PROBE, entry: "probe", calls: [[paths]] },
    { timeoutMs: 10_000, memoryMb: 64, maxOutputBytes: 100_000 },
    [encodeValue([paths])],
  );
  const first = r.results[0];
  if (r.status !== "ok" || first === undefined || !first.ok) {
    return `the isolation probe did not run (${r.status}: ${
      r.error ?? (first && !first.ok ? first.error : "")
    } ${r.stderr.slice(0, 300)})`;
  }
  const bad = first.value;
  if (!Array.isArray(bad)) return "the isolation probe answered nonsense";
  return bad.length === 0
    ? null
    : `the isolation self-test found ${bad.join("; ")}`;
}
