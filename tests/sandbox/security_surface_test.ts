/**
 * The sandbox's kernel surface (issue 43, item 4): the system calls and
 * files a candidate could use to hold memory outside every limit, to
 * reach the host or the next request, or to move between CPUs. One test
 * per attack and backend where the attack exists; each asserts the request
 * ran on the backend it meant, that the attack failed, and that the next
 * request on the same pool still answers correctly.
 *
 * JavaScript is not in this table: a Deno worker has no permissions and
 * Deno has no API for extended attributes, keyrings, CPU affinity,
 * io_uring, userfaultfd, perf events or BPF, and its network APIs need
 * `--allow-net` (the network rows of `security_test.ts`). Pyodide runs
 * in such a worker: its `os` lacks most of these calls, and its sockets
 * are Emscripten's, which reach nothing; the rows run there too.
 */
import assert from "node:assert/strict";
import {
  type Backend,
  createSandbox,
  type RunResult,
  sameValue,
  type Sandbox,
} from "../../lib/sandbox/mod.ts";
import { fallDuring } from "./_attack.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
type PyBackend = "native" | "pyodide";
const BACKENDS: readonly PyBackend[] = ["native", "pyodide"];

const SANDBOXES: Record<PyBackend, Sandbox> = {
  native: createSandbox({ warm: 1, python: "native" }),
  pyodide: createSandbox({ warm: 1, python: "pyodide" }),
};
globalThis.addEventListener("unload", () => {
  for (const s of Object.values(SANDBOXES)) void s.close();
});

// A session keyring holding a secret key, as a systemd service or a PAM
// login has: every worker this process starts inherits it.
const SECRET = `key-${crypto.randomUUID()}`;
const libc = Deno.dlopen("libc.so.6", {
  // syscall(2) with the argument types of keyctl and add_key
  keyctl: {
    name: "syscall",
    parameters: ["i64", "i64", "buffer", "buffer", "i64", "i64"],
    result: "i64",
  },
  addKey: {
    name: "syscall",
    parameters: ["i64", "buffer", "buffer", "buffer", "i64", "i64"],
    result: "i64",
  },
});
const X86 = Deno.build.arch === "x86_64";
const NR_KEYCTL = X86 ? 250 : 219;
const NR_ADD_KEY = X86 ? 248 : 217;
const cstr = (s: string) => new TextEncoder().encode(s + "\0");
// KEYCTL_JOIN_SESSION_KEYRING with a name: a keyring of this test's own
assert.ok(
  libc.symbols.keyctl(
    BigInt(NR_KEYCTL),
    1n,
    cstr(`calc-bench-test-${SECRET}`),
    null,
    0n,
    0n,
  ) > 0n,
  "cannot make the test's session keyring",
);
// add_key("user", "calc-bench-secret", SECRET, KEY_SPEC_SESSION_KEYRING)
assert.ok(
  libc.symbols.addKey(
    BigInt(NR_ADD_KEY),
    cstr("user"),
    cstr("calc-bench-secret"),
    cstr(SECRET),
    BigInt(SECRET.length),
    -3n,
  ) > 0n,
  "cannot add the test's secret key",
);
globalThis.addEventListener("unload", () => libc.close());

/** A probe after every attack: the pool still gives right answers. */
async function probeAfter(backend: PyBackend): Promise<void> {
  const r = await SANDBOXES[backend].runCode({
    language: "python",
    code:
      "import os\ndef f(xs):\n    return [sorted(xs), sorted(os.listdir('/tmp'))]\n",
    entry: "f",
    calls: [[[3, 1, 2]]],
  });
  assert.equal(r.backend, backend);
  assert.equal(r.status, "ok", r.error);
  const c = r.results[0]!;
  assert.ok(c.ok && sameValue(c.value, [[1, 2, 3], []]), JSON.stringify(c));
}

// The candidate's side: the attack returns what it got; "done" means the
// attack worked.
const SYSCALL = String.raw`
import ctypes, os
_libc = ctypes.CDLL(None, use_errno=True)
X86 = os.uname().machine == "x86_64"
def sc(x86, arm, *args):
    r = _libc.syscall(x86 if X86 else arm, *args)
    return r if r != -1 else -ctypes.get_errno()
`;

interface SurfaceAttack {
  name: string;
  backends?: readonly PyBackend[];
  code: string;
  memoryMb?: number;
  timeoutMs?: number;
  /**
   * Largest fall of the host's available memory allowed, MiB (native: a
   * Pyodide pool's refill starts a 150 MiB worker meanwhile).
   */
  maxFallMb?: number;
  check(value: unknown, r: RunResult, backend: PyBackend): void;
}

/** The call failed, or returned something other than "done". */
function failed(r: RunResult): boolean {
  const c = r.results[0]!;
  return !c.ok || c.value !== "done";
}

const ATTACKS: SurfaceAttack[] = [
  {
    name:
      "extended attributes hold memory on /tmp (64 KiB each, up to 640 MiB)",
    memoryMb: 64,
    maxFallMb: 64 + 96,
    timeoutMs: 20_000,
    code: "import os\ndef f():\n" +
      "    open('/tmp/x', 'w').close()\n" +
      "    held = 0\n" +
      "    try:\n" +
      "        for i in range(10240):\n" +
      "            os.setxattr('/tmp/x', 'user.a%d' % i, b'v' * 65536)\n" +
      "            held += 65536\n" +
      "    except (OSError, AttributeError) as e:\n" +
      "        return [held, type(e).__name__]\n" +
      "    return [held, 'done']\n",
    check(value, r) {
      // no attribute holds anything (denied, or no such call)
      if (r.results[0]!.ok) assert.equal((value as unknown[])[0], 0);
    },
  },
  {
    name:
      "the parent's session keyring: read its key, leave one for the next request",
    backends: ["native"],
    code: SYSCALL +
      "def f():\n" +
      "    # KEYCTL_GET_KEYRING_ID of KEY_SPEC_SESSION_KEYRING, request_key, add_key\n" +
      "    ring = sc(250, 219, 0, -3, 0)\n" +
      "    found = sc(249, 218, b'user', b'calc-bench-secret', None, 0)\n" +
      "    left = sc(248, 217, b'user', b'left-behind', b'x', 1, -3)\n" +
      "    return [ring, found, left]\n",
    check(value) {
      // every keyring call is refused (EPERM = 1)
      assert.deepEqual(value, [-1, -1, -1]);
    },
  },
  ...([
    ["AF_INET", 2, 1],
    ["AF_INET6", 10, 2],
    ["AF_VSOCK", 40, 1],
    ["AF_PACKET", 17, 3],
    ["AF_NETLINK", 16, 3],
  ] as const).map(([family, nr, type]): SurfaceAttack => ({
    name: `a ${family} socket`,
    backends: ["native"],
    code: "import socket\ndef f():\n" +
      "    try:\n" +
      `        socket.socket(${nr}, ${type}).close()\n` +
      "    except OSError as e:\n" +
      "        return 'refused: %d' % e.errno\n" +
      "    return 'done'\n",
    check(value) {
      assert.equal(value, "refused: 1");
    },
  })),
  {
    name: "a socket pair (AF_UNIX) still works, for asyncio's self-pipe",
    backends: ["native"],
    code: "import asyncio\ndef f():\n" +
      "    async def g():\n        await asyncio.sleep(0)\n        return 7\n" +
      "    return asyncio.run(g())\n",
    check(value) {
      assert.equal(value, 7);
    },
  },
  {
    name:
      "UDP receive buffers hold memory on the namespace's loopback (446 MiB before)",
    backends: ["native"],
    memoryMb: 64,
    maxFallMb: 64 + 96,
    code: "import socket\ndef f():\n" +
      "    try:\n" +
      "        socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(30)]\n" +
      "    except OSError as e:\n" +
      "        return 'refused: %d' % e.errno\n" +
      "    r = socks[0]; r.bind(('127.0.0.1', 0)); r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)\n" +
      "    for s in socks[1:]:\n" +
      "        for _ in range(4000):\n" +
      "            try:\n                s.sendto(b'x' * 60000, r.getsockname())\n" +
      "            except OSError:\n                break\n" +
      "    return 'done'\n",
    check(value) {
      assert.equal(value, "refused: 1");
    },
  },
  {
    name: "sched_setaffinity leaves the CPU the worker was pinned to",
    code: "import os\ndef f():\n" +
      "    try:\n        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))\n" +
      "    except (OSError, AttributeError) as e:\n        return type(e).__name__\n" +
      "    return 'done'\n",
    check(value, r) {
      assert.ok(failed(r), JSON.stringify(value));
    },
  },
  {
    name: "reads /proc/1/mem (the sandbox's init)",
    code: "def f():\n" +
      "    try:\n" +
      "        start = int(open('/proc/1/maps').read().split()[0].split('-')[0], 16)\n" +
      "        with open('/proc/1/mem', 'rb') as m:\n" +
      "            m.seek(start)\n" +
      "            return 'done' if m.read(16) else 'empty'\n" +
      "    except (OSError, ValueError, IndexError) as e:\n" +
      "        return type(e).__name__\n",
    check(value, r) {
      assert.ok(failed(r), JSON.stringify(value));
    },
  },
  {
    name: "io_uring, userfaultfd, perf_event_open and bpf",
    backends: ["native"],
    code: SYSCALL +
      "def f():\n" +
      "    params = ctypes.create_string_buffer(120)\n" +
      "    attr = ctypes.create_string_buffer(128)\n" +
      "    return [\n" +
      "        sc(425, 425, 8, params),\n" +
      "        sc(323, 282, 0),\n" +
      "        sc(298, 241, attr, 0, -1, -1, 0),\n" +
      "        sc(321, 280, 0, attr, 64),\n" +
      "    ]\n",
    check(value) {
      // all refused with EPERM
      assert.deepEqual(value, [-1, -1, -1, -1]);
    },
  },
  {
    name: "memlock and message-queue limits are set, not inherited",
    backends: ["native"],
    code: "import resource\ndef f():\n" +
      "    return [resource.getrlimit(resource.RLIMIT_MEMLOCK)[1], resource.getrlimit(resource.RLIMIT_MSGQUEUE)[1]]\n",
    check(value) {
      assert.deepEqual(value, [4096, 0]);
    },
  },
];

for (const attack of ATTACKS) {
  for (const backend of attack.backends ?? BACKENDS) {
    Deno.test(
      `runCode() surface [${backend}]: ${attack.name}`,
      opts,
      async () => {
        const { value: r, fellMb: fall } = await fallDuring(() =>
          SANDBOXES[backend].runCode({
            language: "python",
            code: attack.code,
            entry: "f",
            calls: [[]],
            timeoutMs: attack.timeoutMs ?? 20_000,
            ...(attack.memoryMb ? { memoryMb: attack.memoryMb } : {}),
          })
        );
        assert.equal(r.backend, backend as Backend);
        const c = r.results[0]!;
        attack.check(c.ok ? c.value : undefined, r, backend);
        if (attack.maxFallMb !== undefined && backend === "native") {
          assert.ok(
            fall <= attack.maxFallMb,
            `the host's available memory fell by ${fall.toFixed(0)} MiB`,
          );
        }
        await probeAfter(backend);
      },
    );
  }
}
