/**
 * The attack table: one test per attack and backend. Every Python attack
 * runs on Pyodide and on native CPython in bubblewrap (unless it only
 * exists on one, `backends`), every JavaScript attack on Deno. Each test
 * asserts that the request ran on the backend it meant to test, that the
 * attack failed, and that the next request on the same pool still answers
 * correctly (no state leaked, the pool still works).
 */
import assert from "node:assert/strict";
import dgram from "node:dgram";
import {
  type Backend,
  createSandbox,
  type Language,
  type RunRequest,
  type RunResult,
  sameValue,
  type Sandbox,
} from "../../lib/sandbox/mod.ts";
import {
  NATIVE_FILE_BYTES,
  NATIVE_NPROC,
  NATIVE_TMP_BYTES,
} from "../../lib/sandbox/_backend.ts";
import { probeOn } from "./_attack.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PY_BACKENDS = ["pyodide", "native"] as const;
type PyBackend = typeof PY_BACKENDS[number];

const ROOT = new URL("../../", import.meta.url).pathname;
const PROJECT_FILES = [`${ROOT}deno.json`, `${ROOT}lib/types.ts`];
const HOME = Deno.env.get("HOME") ?? "/root";
const BASHRC = `${HOME}/.bashrc`;
const RUN_ID = crypto.randomUUID();
const SECRET = `s3cr3t-${RUN_ID}`;
Deno.env.set("SANDBOX_TEST_SECRET", SECRET);
const PASSWD = Deno.readTextFileSync("/etc/passwd");
/** A host folder outside every sandbox, with a secret file in it. */
const HOST_DIR = Deno.makeTempDirSync({ prefix: "calc-bench-security-" });
const SECRET_FILE = `${HOST_DIR}/secret.txt`;
Deno.writeTextFileSync(SECRET_FILE, SECRET);
const OUTSIDE = `${HOST_DIR}/escaped.txt`;
/** A command that ran on the host would leave this file. */
const MARKER_FILE = `${HOST_DIR}/pwned`;
globalThis.addEventListener(
  "unload",
  () => Deno.removeSync(HOST_DIR, { recursive: true }),
);

/** The start of a host file (what a leak would contain), or null. */
function head(path: string): string | null {
  try {
    return Deno.readTextFileSync(path).slice(0, 80) || null;
  } catch {
    return null;
  }
}

// A descriptor the test process leaves open without close-on-exec (as a
// shell or CI runner may): every worker inherits it from Deno.
const INHERITED = `${HOST_DIR}/inherited.txt`;
Deno.writeTextFileSync(INHERITED, "");
const libc = Deno.dlopen("libc.so.6", {
  open: { parameters: ["buffer", "i32", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
});
const O_WRONLY_APPEND = 0o1 | 0o2000;
const inheritedFd = libc.symbols.open(
  new TextEncoder().encode(INHERITED + "\0"),
  O_WRONLY_APPEND,
  0,
);
assert.ok(inheritedFd > 2, "cannot open the inherited descriptor");
globalThis.addEventListener("unload", () => {
  libc.symbols.close(inheritedFd);
  libc.close();
});

// Host servers no candidate may reach: TCP on 127.0.0.1 (and ::1 where the
// host has IPv6), UDP on 127.0.0.1, a unix socket by path and an abstract one.
const reached = { tcp: 0, udp: 0, unix: 0 };
function countConnections(listener: Deno.Listener, kind: "tcp" | "unix") {
  globalThis.addEventListener("unload", () => listener.close());
  (async () => {
    for await (const conn of listener) {
      reached[kind]++;
      conn.close();
    }
  })().catch(() => {});
}
const tcp = Deno.listen({ hostname: "127.0.0.1", port: 0 });
countConnections(tcp, "tcp");
const PORT = tcp.addr.port;
let PORT6 = PORT;
try {
  const tcp6 = Deno.listen({ hostname: "::1", port: 0 });
  countConnections(tcp6, "tcp");
  PORT6 = tcp6.addr.port;
} catch {
  // no IPv6 on this host: ::1 is tried at the IPv4 port
}
const UNIX_PATH = `${HOST_DIR}/host.sock`;
const UNIX_ABSTRACT = `\0calc-bench-${RUN_ID}`;
for (const path of [UNIX_PATH, UNIX_ABSTRACT]) {
  countConnections(Deno.listen({ transport: "unix", path }), "unix");
}
const udp = dgram.createSocket("udp4");
udp.on("message", () => reached.udp++);
await new Promise<void>((res) => udp.bind(0, "127.0.0.1", res));
globalThis.addEventListener("unload", () => udp.close());
const UDP_PORT = udp.address().port;

// A host process running as the candidate's uid (nobody when the tests
// run as root): a kill that escaped the pid namespace would reach it.
const asRoot = Deno.uid() === 0;
const sentinel = new Deno.Command(asRoot ? "/usr/bin/setpriv" : "sleep", {
  args: asRoot
    ? ["--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "3600"]
    : ["3600"],
  stdin: "null",
  stdout: "null",
  stderr: "null",
}).spawn();
let sentinelExited = false;
sentinel.status.then(() => sentinelExited = true);
sentinel.unref();
globalThis.addEventListener("unload", () => {
  try {
    sentinel.kill("SIGKILL");
  } catch {
    // already gone
  }
});

/** One sandbox per backend; JavaScript only ever runs on "deno". */
const SANDBOXES: Record<Backend, Sandbox> = {
  deno: createSandbox({ warm: 2, python: "pyodide" }),
  pyodide: createSandbox({ warm: 2, python: "pyodide" }),
  native: createSandbox({ warm: 2, python: "native" }),
};
globalThis.addEventListener("unload", () => {
  for (const s of Object.values(SANDBOXES)) void s.close();
});

async function probeAfter(backend: Backend): Promise<void> {
  await probeOn(SANDBOXES[backend], backend);
}

function callError(r: RunResult, i = 0): string {
  const c = r.results[i]!;
  return c.ok ? "" : c.error;
}

function valueOf(r: RunResult, i = 0): unknown {
  const c = r.results[i]!;
  assert.ok(c.ok, `call ${i} failed: ${c.ok ? "" : c.error}`);
  return c.value;
}

/** The first call's value as a list, or [] when it failed. */
function returned(r: RunResult): unknown[] {
  const c = r.results[0]!;
  return c.ok && Array.isArray(c.value) ? c.value : [];
}

/** Asserts no call returned `bad` and the request did not succeed with it. */
function noValue(r: RunResult, bad: (v: unknown) => boolean): void {
  for (const c of r.results) {
    if (c.ok) {
      assert.ok(!bad(c.value), `leaked: ${String(c.value).slice(0, 80)}`);
    }
  }
}

/** Every text a request gave back: values, errors, stdout, stderr. */
function texts(r: RunResult): string[] {
  const out = [r.stdout, r.stderr, r.error ?? ""];
  for (const c of r.results) {
    out.push(
      c.ok
        ? JSON.stringify(
          c.value,
          (_k, v) => typeof v === "bigint" ? String(v) : v,
        ) ?? ""
        : c.error,
    );
  }
  return out;
}

/** Asserts no value, error, stdout or stderr contains `secret`. */
function noLeak(r: RunResult, secret: string | null, what: string): void {
  if (secret === null) return;
  for (const t of texts(r)) {
    assert.ok(!t.includes(secret), `${what} leaked: ${t.slice(0, 120)}`);
  }
}

/** Asserts every call failed, each error matching `pattern` when given. */
function allFailed(r: RunResult, pattern?: RegExp): void {
  r.results.forEach((c, i) => {
    assert.equal(c.ok, false, `call ${i} should have failed`);
    if (pattern && !c.ok) assert.match(c.error, pattern, `call ${i}`);
  });
}

function absentOnHost(path: string): void {
  let exists = false;
  try {
    Deno.statSync(path);
    exists = true;
    Deno.removeSync(path);
  } catch {
    // absent, as it must be
  }
  assert.ok(!exists, `${path} was written on the host`);
}

/**
 * Host processes left by a request: a live process with `marker` in its
 * command line, or in the pid namespace `ns` ("pid:[…]").
 */
function survivors(marker: string, ns: string | null): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
      if (
        cmdline.includes(marker) ||
        (ns !== null && Deno.readLinkSync(`/proc/${e.name}/ns/pid`) === ns)
      ) {
        out.push(Number(e.name));
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Waits (up to 10 s) until no process of the request is left; kills any. */
async function noSurvivors(marker: string, ns: string | null): Promise<void> {
  let left = survivors(marker, ns);
  for (let i = 0; i < 100 && left.length > 0; i++) {
    await new Promise((res) => setTimeout(res, 100));
    left = survivors(marker, ns);
  }
  for (const pid of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  assert.deepEqual(left, [], "processes of the sandbox outlived the request");
}

/** The pid namespace a native candidate printed as `NS pid:[…]`. */
function printedNs(r: RunResult): string | null {
  return /^NS (pid:\[\d+\])$/m.exec(r.stdout)?.[1] ?? null;
}

interface Attack {
  /** What the candidate does, e.g. "Python reads /etc/passwd". */
  name: string;
  language: Language;
  /** Python backends it exists on. @default both */
  backends?: readonly PyBackend[];
  code: string;
  entry?: string;
  calls?: unknown[][] | ((backend: Backend) => unknown[][]);
  timeoutMs?: number;
  memoryMb?: number;
  maxOutputBytes?: number;
  /** What must hold afterwards (the attack failed), per backend. */
  check: (r: RunResult, backend: Backend, ms: number) => void | Promise<void>;
}

const denied = (r: RunResult) => {
  assert.equal(r.results[0]!.ok, false, "the call should have failed");
  assert.match(
    callError(r),
    /NotCapable|Requires|PermissionDenied|not permitted|Errno|OSError|Error/,
  );
};

const JS_ATTACKS: Attack[] = [
  {
    name: "JS reads /etc/passwd",
    language: "javascript",
    code: "function f() { return Deno.readTextFileSync('/etc/passwd'); }",
    check: (r) => (denied(r), noValue(r, (v) => v === PASSWD)),
  },
  {
    name: "JS reads the project's own deno.json",
    language: "javascript",
    code: `function f() { return Deno.readTextFileSync(${
      JSON.stringify(PROJECT_FILES[0])
    }); }`,
    check: denied,
  },
  {
    name: "TS reads ~/.bashrc",
    language: "typescript",
    code: `export function f(): string { return Deno.readTextFileSync(${
      JSON.stringify(BASHRC)
    }); }`,
    check: denied,
  },
  {
    name: "JS writes a file outside",
    language: "javascript",
    code: `function f() { Deno.writeTextFileSync(${
      JSON.stringify(OUTSIDE)
    }, 'x'); return 1; }`,
    check: (r) => (denied(r), absentOnHost(OUTSIDE)),
  },
  {
    name: "JS fetches a local server and opens a socket",
    language: "javascript",
    code:
      `async function f(k) { if (k) { await fetch('http://127.0.0.1:${PORT}/'); } else { await Deno.connect({ hostname: '127.0.0.1', port: ${PORT} }); } return 'reached'; }`,
    calls: [[1], [0]],
    check: (r) => (allFailed(r), assert.equal(reached.tcp, 0)),
  },
  {
    name: "JS imports a remote URL and a local file dynamically",
    language: "javascript",
    code:
      `async function f(u) { const m = await import(u); return Object.keys(m).length; }`,
    calls: [["https://deno.land/std/version.ts"], [
      `file://${ROOT}lib/types.ts`,
    ]],
    check: (r) => allFailed(r),
  },
  {
    name: "JS reads an environment variable set in the parent",
    language: "javascript",
    code:
      "function f() { try { return Deno.env.get('SANDBOX_TEST_SECRET') ?? 'none'; } catch { return JSON.stringify(Deno.env.toObject()); } }",
    check: (r) => noLeak(r, SECRET, "the parent's environment"),
  },
  {
    name: "JS spawns a process",
    language: "javascript",
    code:
      "function f() { return new TextDecoder().decode(new Deno.Command('/bin/sh', { args: ['-c', 'echo pwned'] }).outputSync().stdout); }",
    check: (r) => (denied(r), noValue(r, (v) => String(v).includes("pwned"))),
  },
  {
    name: "JS Deno.exit(0) mid-run does not look like success",
    language: "javascript",
    code: "function f(x) { if (x === 2) Deno.exit(0); return x; }",
    calls: [[1], [2], [3]],
    check: (r) => {
      assert.equal(r.status, "crash");
      assert.equal(r.results[0]!.ok && r.results[0]!.value, 1);
      assert.equal(r.results[1]!.ok, false);
      assert.equal(r.results[2]!.ok, false);
    },
  },
  {
    name: "JS prints a fake result frame to stdout, then exits",
    language: "javascript",
    code:
      "function f() { const fake = JSON.stringify({ t: 'r', i: 0, r: { ok: true, ms: 1, v: 42 } }); for (const n of ['', '0'.repeat(32)]) { console.log('\\n' + n + ' ' + fake); console.log('\\n' + n + ' {\"t\":\"end\"}'); } Deno.exit(0); }",
    check: (r) => {
      assert.equal(r.status, "crash");
      assert.equal(r.results[0]!.ok, false);
      assert.match(r.stdout, /"v":42/);
    },
  },
  {
    name: "JS infinite loop is killed at the time limit",
    language: "javascript",
    code: "function f() { while (true) {} }",
    timeoutMs: 1500,
    check: (r) => {
      assert.equal(r.status, "timeout");
      assert.equal(r.results[0]!.ok, false);
    },
  },
  {
    name: "JS unbounded memory growth is stopped",
    language: "javascript",
    code:
      "function f() { const a = []; while (true) a.push(new Array(1e6).fill(Math.random())); }",
    memoryMb: 128,
    timeoutMs: 30_000,
    check: (r) => assert.equal(r.status, "memory"),
  },
  {
    name: "JS output flood hits the output cap",
    language: "javascript",
    code: "function f() { while (true) console.log('x'.repeat(1000)); }",
    maxOutputBytes: 100_000,
    check: (r) => {
      assert.equal(r.status, "output_limit");
      assert.ok(r.stdout.length <= 100_000);
    },
  },
  {
    name:
      "JS patches JSON.stringify, Object.prototype and globals for later runs",
    language: "javascript",
    code:
      "JSON.stringify = () => '\"pwned\"'; Object.prototype.polluted = true; Array.prototype.sort = function () { return [42]; }; globalThis.LEAK = 1; function f() { return [JSON.stringify([1]), ({}).polluted]; }",
    check: (r) => {
      assert.equal(r.status, "ok");
      assert.ok(
        sameValue(r.results[0]!.ok && r.results[0]!.value, ['"pwned"', true]),
      );
    },
  },
  {
    name: "JS returns an object that claims equality (valueOf, toJSON, Proxy)",
    language: "javascript",
    code:
      "class Eq { equals() { return true; } valueOf() { return 12345; } toJSON() { return 12345; } } function f(k) { return k ? new Eq() : new Proxy({}, { get: () => 12345 }); }",
    calls: [[1], [0]],
    check: (r) => {
      assert.equal(r.results[0]!.ok, false);
      for (const c of r.results) {
        if (c.ok) assert.ok(!sameValue(c.value, 12345));
      }
    },
  },
];

/** Reads of host files and of the parent's environment. */
const PY_READS: Attack[] = [
  {
    name: "Python reads /etc/passwd",
    language: "python",
    code: "def f():\n    return open('/etc/passwd').read()\n",
    check: (r, backend) => {
      // Pyodide reads its own in-memory file system, never the host's
      noValue(r, (v) => v === PASSWD);
      if (backend === "native") {
        assert.match(callError(r), /FileNotFoundError/);
      }
    },
  },
  {
    name: "Python reads the project's files (deno.json, lib/types.ts)",
    language: "python",
    code: "def f(p):\n    return open(p).read()\n",
    calls: PROJECT_FILES.map((p) => [p]),
    check: (r) => {
      allFailed(r, /FileNotFoundError/);
      for (const p of PROJECT_FILES) noLeak(r, head(p), p);
    },
  },
  {
    name: "Python reads ~/.bashrc and a secret file in a host temp dir",
    language: "python",
    code: String.raw`
import os
def f(p):
    return os.listdir(p) if p.endswith('/') else open(p).read()
`,
    calls: [[BASHRC], [SECRET_FILE], [`${HOST_DIR}/`], [`${HOME}/`]],
    check: (r) => {
      allFailed(r, /FileNotFoundError/);
      noLeak(r, SECRET, "the host temp file");
      noLeak(r, head(BASHRC), BASHRC);
    },
  },
  {
    name: "Python reads /proc/1/environ and the parent's environment",
    language: "python",
    code: String.raw`
import os, sys
def f():
    out = [sorted(os.environ), repr(dict(os.environ))]
    paths = ['/proc/1/environ', '/proc/self/environ', '/proc/1/cmdline']
    try:
        paths += ['/proc/' + p + '/environ' for p in os.listdir('/proc') if p.isdigit()]
    except OSError as e:
        out.append(repr(e))
    for p in paths:
        try:
            with open(p, 'rb') as fh:
                out.append(fh.read().decode('latin-1'))
        except OSError as e:
            out.append(repr(e))
    text = '\n'.join(str(x) for x in out)
    print(text)
    sys.stderr.write(text)
    return out
`,
    check: (r, backend) => {
      assert.equal(r.status, "ok", r.error);
      noLeak(r, SECRET, "SANDBOX_TEST_SECRET");
      noLeak(r, "SANDBOX_TEST_SECRET", "the parent's variable name");
      if (backend === "native") {
        const [keys, , environ1] = valueOf(r) as [string[], string, string];
        assert.deepEqual(keys.filter((k) => k !== "LC_CTYPE"), ["PWD"]);
        // pid 1's /proc folder is hidden: no environment to read at all
        assert.match(environ1, /FileNotFoundError/, "pid 1 is hidden");
      }
    },
  },
  {
    name: "Python reads /etc/passwd through the js module",
    language: "python",
    backends: ["pyodide"],
    code:
      "import js\ndef f():\n    return js.Deno.readTextFileSync('/etc/passwd')\n",
    check: (r) => (denied(r), noValue(r, (v) => v === PASSWD)),
  },
  {
    name: "Python reads the project's files and ~/.bashrc through js",
    language: "python",
    backends: ["pyodide"],
    code: `import js\ndef f(p):\n    return js.Deno.readTextFileSync(p)\n`,
    calls: [[PROJECT_FILES[0]], [BASHRC]],
    check: (r) => allFailed(r),
  },
  {
    name: "Python reads an environment variable through js",
    language: "python",
    backends: ["pyodide"],
    code:
      "import js\ndef f():\n    return js.Deno.env.get('SANDBOX_TEST_SECRET')\n",
    check: (r) => (denied(r), noLeak(r, SECRET, "SANDBOX_TEST_SECRET")),
  },
];

/** Writes outside the sandbox's own tmpfs, and filling it. */
const ESCAPED = `escaped-${RUN_ID}`;
const WRITE_TARGETS = [
  `/${ESCAPED}`,
  `/usr/${ESCAPED}`,
  `/dev/${ESCAPED}`,
  `${ROOT}${ESCAPED}`,
  `${HOST_DIR}/${ESCAPED}`,
];
const FILL = `/tmp/fill-${RUN_ID}-`;
const PY_WRITES: Attack[] = [
  {
    name: "Python writes outside its tmpfs (/, /usr, /dev, project, host temp)",
    language: "python",
    code: String.raw`
def f(p):
    with open(p, 'w') as fh:
        fh.write('x')
    return 'written'
`,
    calls: WRITE_TARGETS.map((p) => [p]),
    check: (r, backend) => {
      // Pyodide may write / and /dev of its own in-memory file system
      if (backend === "native") {
        allFailed(r, /Read-only file system|No such file or directory/);
      }
      for (const p of WRITE_TARGETS) absentOnHost(p);
    },
  },
  {
    name: "Python fills /tmp: stopped at the file-size and tmpfs caps",
    language: "python",
    code: String.raw`
def f(prefix, cap_mb):
    written, errors = 0, []
    block = b'x' * (1 << 20)
    for i in range(4):
        try:
            with open(prefix + str(i), 'wb') as fh:
                while written < cap_mb << 20:
                    fh.write(block)
                    fh.flush()
                    written += len(block)
        except OSError as e:
            errors.append(e.strerror)
    return [written >> 20, errors]
`,
    // Pyodide has no cap: its in-memory files live in the worker's memory
    calls: (b) => [[FILL, b === "native" ? 64 : 16]],
    check: (r, backend) => {
      assert.equal(r.status, "ok", r.error);
      const [mb, errors] = valueOf(r) as [number, string[]];
      if (backend === "native") {
        assert.ok(mb <= NATIVE_TMP_BYTES >> 20, `${mb} MiB written`);
        assert.ok(mb >= NATIVE_FILE_BYTES >> 20, `only ${mb} MiB written`);
        assert.equal(errors[0], "File too large");
        assert.ok(errors.includes("No space left on device"), String(errors));
      }
      for (let i = 0; i < 4; i++) absentOnHost(FILL + i);
    },
  },
  {
    name: "Python leaves files in /tmp and home for a later run",
    language: "python",
    code: String.raw`
def f():
    open('/tmp/leak.txt', 'w').write('x')
    try:
        open('/home/pyodide/leak.txt', 'w').write('x')
    except OSError:
        pass
    return open('/tmp/leak.txt').read()
`,
    check: (r) => assert.equal(valueOf(r), "x"),
  },
  {
    name: "Python writes to descriptors the parent process inherited",
    language: "python",
    code: String.raw`
import os
def f():
    hit = []
    for fd in range(3, 1024):
        try:
            os.write(fd, b'ESCAPED\n')
            hit.append(fd)
        except OSError:
            pass
    return hit
`,
    check: (r, backend) => {
      assert.equal(r.status, "ok", r.error);
      if (backend === "native") assert.deepEqual(valueOf(r), []);
      assert.equal(Deno.readTextFileSync(INHERITED), "");
    },
  },
  {
    name: "Python writes a file outside (open() and js)",
    language: "python",
    backends: ["pyodide"],
    code:
      `import js\ndef f(p):\n    open(p, 'w').write('x')\n    js.Deno.writeTextFileSync(p, 'x')\n    return 1\n`,
    calls: [[OUTSIDE]],
    check: (r) => (allFailed(r), absentOnHost(OUTSIDE)),
  },
];

/** The network: raw sockets, IPv6, unix sockets, the host's servers. */
const PY_NET: Attack[] = [
  {
    name: "Python opens raw sockets (SOCK_RAW, AF_PACKET)",
    language: "python",
    code: String.raw`
import socket
def f(kind):
    fam, proto = {'raw4': (socket.AF_INET, 1), 'raw6': (socket.AF_INET6, 58), 'packet': (17, 0)}[kind]
    socket.socket(fam, socket.SOCK_RAW, proto)
    return 'opened'
`,
    calls: [["raw4"], ["raw6"], ["packet"]],
    check: (r, backend) =>
      allFailed(
        r,
        backend === "native" ? /Operation not permitted/ : undefined,
      ),
  },
  {
    name: "Python connects over IPv6 (::1, a global address) and IPv4 out",
    language: "python",
    code: String.raw`
import socket
def f(host, port):
    socket.create_connection((host, port), timeout=2).close()
    return 'connected'
`,
    calls: [["::1", PORT6], ["2001:4860:4860::8888", 53], ["1.1.1.1", 53]],
    check: (r, backend) => {
      allFailed(
        r,
        backend === "native"
          ? /Operation not permitted/ // no socket but AF_UNIX
          : undefined,
      );
      assert.equal(reached.tcp, 0);
    },
  },
  {
    name: "Python connects to the host's unix sockets (abstract and by path)",
    language: "python",
    code: String.raw`
import socket
def f(addr):
    s = socket.socket(socket.AF_UNIX)
    s.connect(addr)
    s.sendall(b'pwned')
    return 'connected'
`,
    calls: [[UNIX_ABSTRACT], [UNIX_PATH]],
    check: (r, backend) => {
      allFailed(
        r,
        backend === "native"
          ? /Connection refused|No such file or directory/
          : undefined,
      );
      assert.equal(reached.unix, 0);
    },
  },
  {
    name: "Python reaches the test's TCP and UDP servers on 127.0.0.1",
    language: "python",
    code: String.raw`
import socket
def f(kind, port):
    if kind == 'tcp':
        socket.create_connection(('127.0.0.1', port), timeout=2).sendall(b'GET / HTTP/1.0\r\n\r\n')
        return 'connected'
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for _ in range(3):
        s.sendto(b'pwned', ('127.0.0.1', port))
    return 'sent'
`,
    calls: [["tcp", PORT], ["udp", UDP_PORT]],
    check: async (r) => {
      // a datagram sent into the sandbox's own loopback goes nowhere
      assert.equal(r.results[0]!.ok, false);
      await new Promise((res) => setTimeout(res, 300));
      assert.deepEqual(reached, { tcp: 0, udp: 0, unix: 0 });
    },
  },
  {
    name: "Python opens a socket and fetches through js",
    language: "python",
    backends: ["pyodide"],
    code:
      `import js, socket\ndef f(k):\n    if k:\n        js.Deno.listen(js.JSON.parse('{"port": 0}'))\n    else:\n        socket.create_connection(('127.0.0.1', ${PORT}), timeout=1)\n    return 'reached'\n`,
    calls: [[1], [0]],
    check: (r) => (allFailed(r), assert.equal(reached.tcp, 0)),
  },
];

/** Processes: fork bombs, threads, signals, ptrace, setuid, shells. */
const FORK_MARK = `fork-bomb-${RUN_ID}`;
const THREAD_MARK = `threads-${RUN_ID}`;
const PTRACE_MARK = `ptrace-survivor-${RUN_ID}`;
const PY_PROCESSES: Attack[] = [
  {
    name: "Python fork bomb is stopped by RLIMIT_NPROC and leaves nothing",
    language: "python",
    code: String.raw`
import os, sys
CHILD = "import os, time\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        time.sleep(0.01)\n"
def f(marker):
    forks, error = 0, None
    while forks < 200:
        try:
            pid = os.fork()
        except OSError as e:
            error = e.strerror
            break
        if pid == 0:
            try:
                os.execv(sys.executable, [sys.executable, '-I', '-S', '-c', CHILD, marker])
            finally:
                os._exit(0)
        forks += 1
    try:
        ns = os.readlink('/proc/self/ns/pid')
    except OSError:
        ns = None
    return [forks, error, ns]
`,
    calls: [[FORK_MARK]],
    check: async (r, backend) => {
      const [forks, error, ns] = returned(r) as [number, string, string];
      await noSurvivors(FORK_MARK, ns ?? null);
      assert.equal(r.status, "ok", r.error);
      assert.ok(error, "fork never failed");
      if (backend === "native") {
        assert.match(error, /Resource temporarily unavailable/);
        assert.ok(forks < NATIVE_NPROC, `${forks} forks`);
        assert.match(String(ns), /^pid:\[\d+\]$/);
      }
    },
  },
  {
    name: "Python starts threads in a loop: stopped by RLIMIT_NPROC",
    language: "python",
    code: String.raw`
import os, threading
def f():
    n, error = 0, None
    stop = threading.Event()
    while n < 1000:
        try:
            threading.Thread(target=stop.wait, daemon=True).start()
        except RuntimeError as e:
            error = str(e)
            break
        n += 1
    try:
        ns = os.readlink('/proc/self/ns/pid')
    except OSError:
        ns = None
    return [n, error, ns]
`,
    check: async (r, backend) => {
      const [n, error, ns] = returned(r) as [number, string, string];
      await noSurvivors(THREAD_MARK, ns ?? null);
      assert.equal(r.status, "ok", r.error);
      assert.match(String(error), /can't start new thread/);
      if (backend === "native") assert.ok(n < NATIVE_NPROC, `${n} threads`);
    },
  },
  {
    name: "Python kills its parent, pid 1 and every process (signal 9)",
    language: "python",
    code: String.raw`
import os
def f(target):
    pid = {'parent': os.getppid(), 'one': 1, 'all': -1}[target]
    try:
        os.kill(pid, 9)
    except OSError as e:
        return ['refused', pid, e.strerror]
    return ['sent', pid]
`,
    calls: [["parent"], ["one"], ["all"]],
    check: async (r, backend) => {
      // the sandbox's pid 1 ignores signals from inside; -1 finds no one
      assert.equal(r.status, "ok", r.error);
      if (backend === "native") {
        r.results.forEach((_, i) => valueOf(r, i));
      }
      await new Promise((res) => setTimeout(res, 200));
      assert.ok(!sentinelExited, "a host process was killed");
    },
  },
  {
    name: "Python ptrace-attaches pid 1 and writes /proc/1/mem (ctypes)",
    language: "python",
    code: String.raw`
import ctypes, os
def f(kind):
    if kind == 'mem':
        os.close(os.open('/proc/1/mem', os.O_RDWR))
        return 'opened'
    libc = ctypes.CDLL(None, use_errno=True)
    r = libc.ptrace({'attach': 16, 'seize': 0x4206}[kind], 1, None, None)
    return [r, os.strerror(ctypes.get_errno())]
`,
    calls: [["attach"], ["seize"], ["mem"]],
    check: (r, backend) => {
      noValue(r, (v) => v === "opened" || (Array.isArray(v) && v[0] === 0));
      if (backend === "native") {
        assert.deepEqual(valueOf(r, 0), [-1, "Operation not permitted"]);
        assert.deepEqual(valueOf(r, 1), [-1, "Operation not permitted"]);
        // pid 1's /proc folder is hidden under an empty read-only one
        assert.match(callError(r, 2), /No such file or directory/);
      } else allFailed(r);
    },
  },
  {
    name:
      "Python clears pid 1's parent-death signal through ptrace, outlives the limit",
    language: "python",
    code: String.raw`
import ctypes, os, sys, time

class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs".split()]

def clear_pdeathsig_of_pid1():
    # x86_64: stop pid 1 (bubblewrap's init, in wait4) and make it run
    # prctl(PR_SET_PDEATHSIG, 0) at its syscall instruction, then resume
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    libc.ptrace.restype = ctypes.c_long
    if libc.ptrace(16, 1, None, None) != 0:
        return 'attach refused: ' + os.strerror(ctypes.get_errno())
    os.waitpid(1, 0x40000000)
    regs = Regs()
    libc.ptrace(12, 1, None, ctypes.byref(regs))
    saved = Regs.from_buffer_copy(regs)
    regs.rax, regs.rdi, regs.rsi, regs.orig_rax, regs.rip = 157, 1, 0, 2 ** 64 - 1, saved.rip - 2
    libc.ptrace(13, 1, None, ctypes.byref(regs))
    libc.ptrace(9, 1, None, None)
    os.waitpid(1, 0x40000000)
    saved.rax, saved.rip = saved.orig_rax, saved.rip - 2
    libc.ptrace(13, 1, None, ctypes.byref(saved))
    libc.ptrace(17, 1, None, None)
    return 'cleared'

def f(marker):
    try:
        print('NS', os.readlink('/proc/self/ns/pid'), flush=True)
    except OSError:
        pass
    try:
        print('PTRACE', clear_pdeathsig_of_pid1(), flush=True)
    except Exception as e:
        print('PTRACE', repr(e), flush=True)
    try:
        if os.fork() == 0:
            try:
                os.execv(sys.executable, [sys.executable, '-I', '-S', '-c', 'import time; time.sleep(120)', marker])
            finally:
                os._exit(0)
    except OSError:
        pass
    time.sleep(30)
`,
    calls: [[PTRACE_MARK]],
    timeoutMs: 3000,
    check: async (r, backend, ms) => {
      await noSurvivors(PTRACE_MARK, printedNs(r));
      assert.equal(r.status, "timeout");
      // with the hole the request waited for the candidate's 30 s sleep
      assert.ok(ms < 25_000, `the request took ${ms} ms`);
      if (backend === "native") {
        assert.match(
          r.stdout,
          /PTRACE attach refused: Operation not permitted/,
        );
      }
    },
  },
  {
    name: "Python execs setuid binaries (su, mount) and stays unprivileged",
    language: "python",
    code: String.raw`
import os
def f(path):
    if not path:
        return [os.getuid(), os.geteuid(), os.getgid(), os.getegid()]
    os.execv(path, [path, '--version'])
    return 'not reached'
`,
    // Pyodide has no uids: asking for one is a fatal error of the worker
    calls: (b) => [
      ["/usr/bin/su"],
      ["/usr/bin/mount"],
      ["/bin/su"],
      ...(b === "native" ? [[""]] : []),
    ],
    check: (r, backend) => {
      assert.equal(r.status, "ok", r.error);
      for (let i = 0; i < 3; i++) {
        assert.equal(r.results[i]!.ok, false, `exec ${i} should have failed`);
      }
      if (backend === "native") {
        assert.deepEqual(valueOf(r, 3), [65534, 65534, 65534, 65534]);
      }
    },
  },
  {
    name: "Python runs a shell and the mount syscall through ctypes",
    language: "python",
    code: String.raw`
import ctypes, os
def f(kind, marker):
    libc = ctypes.CDLL(None, use_errno=True)
    if kind == 'system':
        rc = libc.system(('id > /tmp/x; echo pwned > ' + marker).encode())
        return [rc, os.path.exists('/tmp/x')]
    if kind == 'mount':
        rc = libc.mount(b'none', b'/tmp', b'tmpfs', 0, None)
    elif kind == 'syscall':
        nr = {'x86_64': 165, 'aarch64': 40}[os.uname().machine]
        rc = libc.syscall(nr, b'none', b'/usr', b'tmpfs', 0, None)
    else:
        rc = libc.unshare(0x10000000)  # CLONE_NEWUSER
    return [rc, os.strerror(ctypes.get_errno())]
`,
    // Pyodide: system() asks Deno for a process, a fatal error of the worker
    calls: [
      ["mount", MARKER_FILE],
      ["syscall", MARKER_FILE],
      ["unshare", MARKER_FILE],
      ["system", MARKER_FILE],
    ],
    check: (r, backend) => {
      absentOnHost(MARKER_FILE);
      if (backend === "native") {
        assert.equal(r.status, "ok", r.error);
        assert.deepEqual(valueOf(r, 0), [-1, "Operation not permitted"]);
        assert.deepEqual(valueOf(r, 1), [-1, "Operation not permitted"]);
        assert.equal((valueOf(r, 2) as number[])[0], -1);
        const [rc, wrote] = valueOf(r, 3) as [number, boolean];
        assert.notEqual(rc, 0, "system() ran a shell");
        assert.equal(wrote, false);
      } else noValue(r, (v) => Array.isArray(v) && v[0] === 0);
    },
  },
  {
    name: "Python runs os.system and subprocess (no shell in the sandbox)",
    language: "python",
    code: String.raw`
import os, subprocess
def f(kind, marker):
    cmd = 'echo pwned; echo pwned > ' + marker
    if kind == 'system':
        return os.system(cmd)
    return repr(subprocess.run(['/bin/sh', '-c', cmd], capture_output=True))
`,
    calls: [["subprocess", MARKER_FILE], ["system", MARKER_FILE]],
    check: (r, backend) => {
      absentOnHost(MARKER_FILE);
      assert.doesNotMatch(r.stdout, /^pwned$/m);
      assert.equal(r.results[0]!.ok, false);
      if (backend === "native") assert.notEqual(valueOf(r, 1), 0);
    },
  },
  {
    name: "Python spawns a process (subprocess and js)",
    language: "python",
    backends: ["pyodide"],
    code:
      "import subprocess, js\ndef f(k):\n    if k:\n        return subprocess.run(['echo', 'pwned'], capture_output=True).stdout\n    return js.Deno.Command.new('/bin/sh').outputSync().code\n",
    calls: [[1], [0]],
    check: (r) => allFailed(r),
  },
];

/** Time, memory and output limits. */
const PY_LIMITS: Attack[] = [
  {
    name: "Python sleeps past the time limit",
    language: "python",
    code: "import time\ndef f():\n    time.sleep(60)\n",
    timeoutMs: 1500,
    check: (r) => {
      assert.equal(r.status, "timeout");
      assert.equal(r.results[0]!.ok, false);
    },
  },
  {
    name: "Python infinite loop is killed at the time limit",
    language: "python",
    code: "def f():\n    while True:\n        pass\n",
    timeoutMs: 1500,
    check: (r) => assert.equal(r.status, "timeout"),
  },
  {
    name: "Python unbounded memory growth is stopped",
    language: "python",
    code:
      "def f():\n    a = []\n    while True:\n        a.append(b'x' * 10 ** 7)\n",
    memoryMb: 128,
    timeoutMs: 30_000,
    check: (r, backend) => {
      // Pyodide: WebAssembly memory, which may also end in a MemoryError
      if (backend === "native") assert.equal(r.status, "memory");
      else {
        assert.ok(
          r.status === "memory" ||
            (!r.results[0]!.ok && /MemoryError/.test(callError(r))),
          `status ${r.status}: ${callError(r)}`,
        );
      }
    },
  },
  {
    name: "Python holds memory outside its resident set (memfd, SysV shm)",
    language: "python",
    code: String.raw`
import ctypes, os
def f(kind):
    held = []
    if kind == 'memfd':
        block = b'x' * (1 << 20)
        for i in range(16):
            fd = os.memfd_create('x')
            for _ in range(16):
                os.write(fd, block)
            held.append(fd)
        return len(held) * 16
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    for i in range(4):
        sid = libc.shmget(0, 64 << 20, 0o1600)
        if sid < 0:
            e = ctypes.get_errno()
            raise OSError(e, 'shmget: ' + os.strerror(e))
        p = libc.shmat(sid, None, 0)
        ctypes.memset(p, 1, 64 << 20)
        libc.shmdt(ctypes.c_void_p(p))
        held.append(sid)
    return len(held) * 64
`,
    calls: [["memfd"], ["shm"]],
    memoryMb: 128,
    check: (r, backend) => {
      noValue(r, (v) => typeof v === "number" && v >= 128);
      allFailed(r, backend === "native" ? /not permitted/ : undefined);
    },
  },
  {
    name: "Python output flood hits the output cap",
    language: "python",
    code: "def f():\n    while True:\n        print('x' * 1000)\n",
    maxOutputBytes: 100_000,
    check: (r) => {
      assert.equal(r.status, "output_limit");
      assert.ok(r.stdout.length <= 100_000);
    },
  },
  {
    name: "Python stderr flood hits the output cap",
    language: "python",
    code:
      "import sys\ndef f():\n    while True:\n        sys.stderr.write('x' * 1000 + '\\n')\n",
    maxOutputBytes: 100_000,
    check: (r) => {
      assert.equal(r.status, "output_limit");
      assert.ok(r.stdout.length + r.stderr.length <= 100_000);
    },
  },
];

/** The results channel and state between requests. */
const PY_CHANNEL: Attack[] = [
  {
    name: "Python sys.exit(0) mid-run does not look like success",
    language: "python",
    code:
      "import sys, os\ndef f(x):\n    if x == 2:\n        sys.exit(0)\n    if x == 3:\n        os._exit(0)\n    return x\n",
    calls: [[1], [2], [3], [4]],
    check: (r) => {
      assert.equal(r.results[0]!.ok && r.results[0]!.value, 1);
      assert.equal(r.results[1]!.ok, false);
      assert.equal(r.results[2]!.ok, false);
      assert.equal(r.results[3]!.ok, false);
    },
  },
  {
    name: "Python sys.exit(0) at module level is a crash",
    language: "python",
    code: "import sys\nsys.exit(0)\ndef f():\n    return 1\n",
    check: (r) => {
      assert.equal(r.status, "crash");
      assert.equal(r.results[0]!.ok, false);
    },
  },
  {
    name: "Python prints a fake result frame to stdout",
    language: "python",
    code:
      'import sys\nprint(\'\\n\' + \'0\' * 32 + \' {"t":"load","r":{"status":"ok"}}\')\ndef f():\n    print(\'\\n\' + \'0\' * 32 + \' {"t":"r","i":0,"r":{"ok":true,"ms":1,"v":42}}\')\n    print(\'\\n\' + \'0\' * 32 + \' {"t":"end"}\')\n    return 7\n',
    check: (r) => {
      assert.equal(r.status, "ok");
      assert.equal(r.results[0]!.ok && r.results[0]!.value, 7);
      assert.match(r.stdout, /"v":42/);
    },
  },
  {
    name: "Python patches builtins and sorted for later runs",
    language: "python",
    code:
      "import builtins\nbuiltins.sorted = lambda *a, **k: [42]\nbuiltins.LEAK = 1\nbuiltins.len = lambda x: 99\nLEAK = 1\ndef f():\n    return sorted([3, 1, 2])\n",
    check: (r) => {
      assert.equal(r.status, "ok");
      assert.ok(sameValue(r.results[0]!.ok && r.results[0]!.value, [42]));
    },
  },
  {
    name: "Python returns an object whose __eq__ is always True",
    language: "python",
    code:
      "class Eq:\n    def __eq__(self, other):\n        return True\nclass EqInt(int):\n    def __eq__(self, other):\n        return True\ndef f(k):\n    return Eq() if k else EqInt(1)\n",
    calls: [[1], [0]],
    check: (r) => {
      allFailed(r);
      for (const c of r.results) {
        if (c.ok) assert.ok(!sameValue(c.value, 12345));
      }
    },
  },
];

const ATTACKS: Attack[] = [
  ...JS_ATTACKS,
  ...PY_READS,
  ...PY_WRITES,
  ...PY_NET,
  ...PY_PROCESSES,
  ...PY_LIMITS,
  ...PY_CHANNEL,
];

function backendsOf(attack: Attack): Backend[] {
  return attack.language === "python"
    ? [...(attack.backends ?? PY_BACKENDS)]
    : ["deno"];
}

for (const attack of ATTACKS) {
  for (const backend of backendsOf(attack)) {
    Deno.test(
      `runCode() security [${backend}]: ${attack.name}`,
      opts,
      async () => {
        const calls = typeof attack.calls === "function"
          ? attack.calls(backend)
          : attack.calls ?? [[]];
        const req: RunRequest = {
          language: attack.language,
          code: attack.code,
          entry: attack.entry ?? "f",
          calls,
          timeoutMs: attack.timeoutMs ?? 20_000,
        };
        if (attack.memoryMb) req.memoryMb = attack.memoryMb;
        if (attack.maxOutputBytes) req.maxOutputBytes = attack.maxOutputBytes;
        const t0 = performance.now();
        const r = await SANDBOXES[backend].runCode(req);
        const ms = performance.now() - t0;
        assert.equal(r.backend, backend, "the attack ran on another backend");
        await attack.check(r, backend, ms);
        await probeAfter(backend);
      },
    );
  }
}
