/**
 * Memory and process attacks a per-process limit does not stop (issue 43,
 * items 3 and 5): many forked children each under the address-space cap,
 * a fork bomb that holds memory, and more processes than the pids limit.
 * Each test asserts the request ran on the backend it meant, that the
 * host's available memory (`MemAvailable`, sampled every 20 ms from this
 * process while the attack runs) never fell by more than the request's
 * `memoryMb` plus `MARGIN_MB`, the status, the isolation level this
 * machine gives, and that the next request on the same pool still answers
 * correctly.
 *
 * The attacks need `fork`, so they exist on native Python only (Pyodide
 * and a permission-less Deno child cannot start a process).
 */
import assert from "node:assert/strict";
import {
  createSandbox,
  type RunResult,
  sameValue,
} from "../../lib/sandbox/mod.ts";
import { cgroupSupport } from "../../lib/sandbox/_cgroup.ts";
import { fallDuring } from "./_attack.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const MEMORY_MB = 64;
/**
 * Room for what else moves the host's available memory meanwhile: the
 * worker the pool starts in the background (about 15 MiB), the page cache,
 * and other tests on the machine. An attack that escapes the limit takes
 * 0.7 GB and more.
 */
const MARGIN_MB = 128;
/** The level this machine gives: cgroup where one can be made. */
const EXPECTED = cgroupSupport().level;

const sandbox = createSandbox({ warm: 1, python: "native" });
globalThis.addEventListener("unload", () => void sandbox.close());

async function probeAfter(): Promise<void> {
  const r = await sandbox.runCode({
    language: "python",
    code:
      "import os\ndef f(xs):\n    return [sorted(xs), os.listdir('/tmp')]\n",
    entry: "f",
    calls: [[[3, 1, 2]]],
  });
  assert.equal(r.backend, "native");
  assert.equal(r.status, "ok", `probe after the attack: ${r.error}`);
  const c = r.results[0]!;
  assert.ok(c.ok && sameValue(c.value, [[1, 2, 3], []]), JSON.stringify(c));
}

function held(r: RunResult, fellMb: number): void {
  console.log(
    `  status ${r.status}, isolation ${r.isolation}, host fell ${
      fellMb.toFixed(0)
    } MiB, ${JSON.stringify(r.results[0]).slice(0, 160)}`,
  );
  assert.equal(r.backend, "native", "ran on another backend");
  assert.ok(
    fellMb <= MEMORY_MB + MARGIN_MB,
    `the host's available memory fell by ${
      fellMb.toFixed(0)
    } MiB (limit ${MEMORY_MB} + margin ${MARGIN_MB}); status ${r.status}`,
  );
  assert.equal(r.isolation, EXPECTED, "isolation level");
}

/** One attack: a Python `f()` and what must hold of its result. */
interface MemoryAttack {
  name: string;
  timeoutMs: number;
  code: string;
  check(r: RunResult): void;
}

const ATTACKS: MemoryAttack[] = [
  {
    name:
      "native: 14 forked children of 360 MiB each stay inside the request's memory",
    timeoutMs: 15_000,
    code: String.raw`
import os, time
def f():
    kids = []
    for _ in range(14):
        pid = os.fork()
        if pid == 0:
            try:
                b = bytearray(b'\x01') * (360 << 20)
                time.sleep(5)
            finally:
                os._exit(0)
        kids.append(pid)
    for k in kids:
        os.waitpid(k, 0)
    return len(kids)
`,
    check(r) {
      assert.equal(r.status, "memory", `status ${r.status}: ${r.error}`);
    },
  },
  {
    name:
      "native: a fork bomb whose every process holds 100 MiB stays inside the request's memory",
    timeoutMs: 15_000,
    code: String.raw`
import os, time
def f():
    hold = []
    n = 0
    while n < 200:
        try:
            pid = os.fork()
        except OSError:
            break
        n += 1
        if pid == 0:
            hold.append(bytearray(b'\x02') * (100 << 20))
            n = 0
    time.sleep(5)
    return n
`,
    check(r) {
      assert.equal(r.status, "memory", `status ${r.status}: ${r.error}`);
    },
  },
  {
    name:
      "native: more processes and threads than the pids limit fail to start",
    timeoutMs: 15_000,
    code: String.raw`
import os, threading, time
def f():
    stop = threading.Event()
    threads, forks, errors = 0, 0, []
    for _ in range(300):
        try:
            threading.Thread(target=stop.wait, daemon=True).start()
            threads += 1
        except RuntimeError as e:
            errors.append(str(e))
            break
    for _ in range(300):
        try:
            pid = os.fork()
        except OSError as e:
            errors.append(e.strerror)
            break
        if pid == 0:
            time.sleep(3)
            os._exit(0)
        forks += 1
    stop.set()
    return [threads, forks, errors]
`,
    check(r) {
      assert.equal(r.status, "ok", r.error);
      const c = r.results[0]!;
      assert.ok(c.ok, c.ok ? "" : c.error);
      const [threads, forks, errors] = c.value as [number, number, string[]];
      assert.ok(threads + forks < 64, `${threads} threads, ${forks} forks`);
      assert.equal(errors.length, 2, `errors: ${errors.join("; ")}`);
    },
  },
  {
    name:
      "native: extended attributes on a /tmp file (kernel memory) stay inside the request's memory",
    timeoutMs: 20_000,
    code: String.raw`
import os
def f():
    open('/tmp/x', 'w').close()
    n, error = 0, None
    try:
        while n < 35000:
            os.setxattr('/tmp/x', 'user.a%d' % n, b'\x03' * 60000)
            n += 1
    except OSError as e:
        error = e.strerror
    return [n * 60000 >> 20, error]
`,
    check(r) {
      // the kernel refuses the charge (ENOMEM, or setxattr is denied) or
      // its OOM killer ends the worker
      if (r.status === "ok") {
        const c = r.results[0]!;
        assert.ok(c.ok, c.ok ? "" : c.error);
        const [mb, error] = c.value as [number, string | null];
        assert.ok(error !== null && mb <= MEMORY_MB, `${mb} MiB of xattrs`);
      } else assert.equal(r.status, "memory", r.error);
    },
  },
  {
    name:
      "native: hundreds of thousands of empty files (inodes) stay inside the request's memory",
    timeoutMs: 20_000,
    code: String.raw`
import os
def f():
    n, error = 0, None
    try:
        while n < 600000:
            os.close(os.open('/tmp/f%d' % n, os.O_CREAT | os.O_WRONLY, 0o600))
            n += 1
    except OSError as e:
        error = e.strerror
    return [n, error]
`,
    check(r) {
      if (r.status === "ok") {
        const c = r.results[0]!;
        assert.ok(c.ok, c.ok ? "" : c.error);
        const [n, error] = c.value as [number, string | null];
        assert.ok(error !== null && n < 600000, `${n} files`);
      } else assert.equal(r.status, "memory", r.error);
    },
  },
  {
    name:
      "native: data queued in loopback TCP buffers stays inside the request's memory",
    timeoutMs: 20_000,
    code: String.raw`
import socket
def f():
    sent = 0
    try:
        srv = socket.socket()
        srv.bind(('127.0.0.1', 0))
        srv.listen(64)
        port = srv.getsockname()[1]
        socks, chunk = [], b'x' * (1 << 20)
        for _ in range(28):
            c = socket.create_connection(('127.0.0.1', port))
            a, _ = srv.accept()
            socks += [c, a]
            for s in (c, a):
                s.setblocking(False)
                while True:
                    try:
                        sent += s.send(chunk)
                    except BlockingIOError:
                        break
    except OSError as e:
        return [sent >> 20, e.strerror]
    return [sent >> 20, None]
`,
    check(r) {
      // denied by the filter, refused by the kernel, or the cgroup's limit
      // stops the queues filling
      if (r.status === "ok") {
        const c = r.results[0]!;
        assert.ok(c.ok, c.ok ? "" : c.error);
        const [mb, error] = c.value as [number, string | null];
        assert.ok(
          error !== null || mb <= MEMORY_MB + MARGIN_MB,
          `${mb} MiB queued`,
        );
      } else assert.equal(r.status, "memory", r.error);
    },
  },
];

for (const attack of ATTACKS) {
  Deno.test(attack.name, opts, async () => {
    const run = () =>
      fallDuring(() =>
        sandbox.runCode({
          language: "python",
          code: attack.code,
          entry: "f",
          calls: [[]],
          memoryMb: MEMORY_MB,
          timeoutMs: attack.timeoutMs,
        })
      );
    // The host's available memory also falls with what the test files
    // running beside this one (`--parallel`) allocate: CI once saw 212 MiB
    // against a bound of 192. An attack that escapes its limit does so
    // every time, so a fall over the bound is measured once more and the
    // smaller of the two is judged.
    let { value: r, fellMb } = await run();
    if (fellMb > MEMORY_MB + MARGIN_MB) {
      const again = await run();
      console.log(
        `  fell ${fellMb.toFixed(0)} MiB, then ${again.fellMb.toFixed(0)} MiB`,
      );
      if (again.fellMb < fellMb) ({ value: r, fellMb } = again);
    }
    held(r, fellMb);
    attack.check(r);
    await probeAfter();
  });
}
