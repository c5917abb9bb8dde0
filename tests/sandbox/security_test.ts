/**
 * The attack table: one test per attack. Each asserts that the attack
 * failed and that the next request on the same pool still answers
 * correctly (no state leaked, the pool still works).
 */
import assert from "node:assert/strict";
import {
  createSandbox,
  type Language,
  type RunRequest,
  type RunResult,
  sameValue,
} from "../../lib/sandbox/mod.ts";

const sandbox = createSandbox({ warm: 2, python: "pyodide" });
globalThis.addEventListener("unload", () => void sandbox.close());
const opts = { sanitizeOps: false, sanitizeResources: false };

const ROOT = new URL("../../", import.meta.url).pathname;
const PROJECT_FILE = `${ROOT}deno.json`;
const HOME = Deno.env.get("HOME") ?? "/root";
const SECRET = "s3cr3t-" + crypto.randomUUID();
Deno.env.set("SANDBOX_TEST_SECRET", SECRET);
const OUTSIDE = `${Deno.makeTempDirSync()}/escaped.txt`;
const PASSWD = Deno.readTextFileSync("/etc/passwd");

// A local server: no candidate may reach it.
let hits = 0;
const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen() {} },
  () => {
    hits++;
    return new Response("hi");
  },
);
globalThis.addEventListener("unload", () => void server.shutdown());
const PORT = server.addr.port;

/** The probe run after every attack, per language, and what it must give. */
const PROBE: Record<"python" | "javascript", RunRequest> = {
  python: {
    language: "python",
    code: "import builtins, os\n" +
      "def probe(xs):\n" +
      "    return [sorted(xs), len(xs), str(xs), os.path.exists('/tmp/leak.txt') or os.path.exists('/home/pyodide/leak.txt'), hasattr(builtins, 'LEAK'), globals().get('LEAK')]\n",
    entry: "probe",
    calls: [[[3, 1, 2]]],
  },
  javascript: {
    language: "javascript",
    code:
      "function probe(xs) { return [[...xs].sort((a, b) => a - b), xs.length, JSON.stringify(xs), ({}).polluted ?? false, typeof globalThis.LEAK === 'undefined' ? false : true, null]; }",
    entry: "probe",
    calls: [[[3, 1, 2]]],
  },
};
const PROBE_OK = {
  python: [[1, 2, 3], 3, "[3, 1, 2]", false, false, null],
  javascript: [[1, 2, 3], 3, "[3,1,2]", false, false, null],
};

async function probeAfter(language: Language): Promise<void> {
  const lang = language === "python" ? "python" : "javascript";
  const r = await sandbox.runCode(PROBE[lang]);
  assert.equal(r.status, "ok", `probe after the attack: ${r.error}`);
  const first = r.results[0]!;
  assert.ok(first.ok, "probe call failed");
  assert.ok(
    sameValue(first.value, PROBE_OK[lang]),
    `probe gave ${JSON.stringify(first.value)}`,
  );
}

function callError(r: RunResult, i = 0): string {
  const c = r.results[i]!;
  return c.ok ? "" : c.error;
}

/** Asserts no call returned `bad` and the request did not succeed with it. */
function noValue(r: RunResult, bad: (v: unknown) => boolean): void {
  for (const c of r.results) {
    if (c.ok) {
      assert.ok(!bad(c.value), `leaked: ${String(c.value).slice(0, 80)}`);
    }
  }
}

interface Attack {
  name: string;
  language: Language;
  code: string;
  entry?: string;
  calls?: unknown[][];
  timeoutMs?: number;
  memoryMb?: number;
  maxOutputBytes?: number;
  check: (r: RunResult) => void;
}

const denied = (r: RunResult) => {
  assert.equal(r.results[0]!.ok, false, "the call should have failed");
  assert.match(
    callError(r),
    /NotCapable|Requires|PermissionDenied|not permitted|Errno|OSError|Error/,
  );
};

const ATTACKS: Attack[] = [
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
      JSON.stringify(PROJECT_FILE)
    }); }`,
    check: denied,
  },
  {
    name: "TS reads ~/.bashrc",
    language: "typescript",
    code: `export function f(): string { return Deno.readTextFileSync(${
      JSON.stringify(`${HOME}/.bashrc`)
    }); }`,
    check: denied,
  },
  {
    name: "Python opens /etc/passwd (Pyodide's own file system)",
    language: "python",
    code: "def f():\n    return open('/etc/passwd').read()\n",
    check: (r) => noValue(r, (v) => v === PASSWD),
  },
  {
    name: "Python reads /etc/passwd through the js module",
    language: "python",
    code:
      "import js\ndef f():\n    return js.Deno.readTextFileSync('/etc/passwd')\n",
    check: (r) => (denied(r), noValue(r, (v) => v === PASSWD)),
  },
  {
    name: "Python reads the project's files and ~/.bashrc through js",
    language: "python",
    code: `import js\ndef f(p):\n    return js.Deno.readTextFileSync(p)\n`,
    calls: [[PROJECT_FILE], [`${HOME}/.bashrc`]],
    check: (r) => {
      assert.equal(r.results[0]!.ok, false);
      assert.equal(r.results[1]!.ok, false);
    },
  },
  {
    name: "JS writes a file outside",
    language: "javascript",
    code: `function f() { Deno.writeTextFileSync(${
      JSON.stringify(OUTSIDE)
    }, 'x'); return 1; }`,
    check: (r) => {
      denied(r);
      assert.throws(() => Deno.statSync(OUTSIDE));
    },
  },
  {
    name: "Python writes a file outside (open() and js)",
    language: "python",
    code:
      `import js\ndef f(p):\n    open(p, 'w').write('x')\n    js.Deno.writeTextFileSync(p, 'x')\n    return 1\n`,
    calls: [[OUTSIDE]],
    check: (r) => {
      assert.equal(r.results[0]!.ok, false);
      assert.throws(() => Deno.statSync(OUTSIDE));
    },
  },
  {
    name: "JS fetches a local server and opens a socket",
    language: "javascript",
    code:
      `async function f(k) { if (k) { await fetch('http://127.0.0.1:${PORT}/'); } else { await Deno.connect({ hostname: '127.0.0.1', port: ${PORT} }); } return 'reached'; }`,
    calls: [[1], [0]],
    check: (r) => {
      assert.ok(r.results.every((c) => !c.ok));
      assert.equal(hits, 0);
    },
  },
  {
    name: "Python opens a socket and fetches through js",
    language: "python",
    code:
      `import js, socket\ndef f(k):\n    if k:\n        js.Deno.listen(js.JSON.parse('{"port": 0}'))\n    else:\n        socket.create_connection(('127.0.0.1', ${PORT}), timeout=1)\n    return 'reached'\n`,
    calls: [[1], [0]],
    check: (r) => {
      assert.ok(r.results.every((c) => !c.ok));
      assert.equal(hits, 0);
    },
  },
  {
    name: "JS imports a remote URL and a local file dynamically",
    language: "javascript",
    code:
      `async function f(u) { const m = await import(u); return Object.keys(m).length; }`,
    calls: [["https://deno.land/std/version.ts"], [
      `file://${ROOT}lib/types.ts`,
    ]],
    check: (r) => assert.ok(r.results.every((c) => !c.ok)),
  },
  {
    name: "JS reads an environment variable set in the parent",
    language: "javascript",
    code:
      "function f() { try { return Deno.env.get('SANDBOX_TEST_SECRET') ?? 'none'; } catch { return JSON.stringify(Deno.env.toObject()); } }",
    check: (r) => noValue(r, (v) => String(v).includes(SECRET)),
  },
  {
    name: "Python reads an environment variable (os.environ and js)",
    language: "python",
    code:
      "import os, js\ndef f(k):\n    return os.environ.get('SANDBOX_TEST_SECRET', 'none') if k else js.Deno.env.get('SANDBOX_TEST_SECRET')\n",
    calls: [[1], [0]],
    check: (r) => {
      noValue(r, (v) => String(v).includes(SECRET));
      assert.equal(r.results[1]!.ok, false);
    },
  },
  {
    name: "JS spawns a process",
    language: "javascript",
    code:
      "function f() { return new TextDecoder().decode(new Deno.Command('/bin/sh', { args: ['-c', 'echo pwned'] }).outputSync().stdout); }",
    check: (r) => (denied(r), noValue(r, (v) => String(v).includes("pwned"))),
  },
  {
    name: "Python spawns a process (subprocess and js)",
    language: "python",
    code:
      "import subprocess, js\ndef f(k):\n    if k:\n        return subprocess.run(['echo', 'pwned'], capture_output=True).stdout\n    return js.Deno.Command.new('/bin/sh').outputSync().code\n",
    calls: [[1], [0]],
    check: (r) => assert.ok(r.results.every((c) => !c.ok)),
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
    name: "Python sys.exit(0) mid-run does not look like success",
    language: "python",
    code:
      "import sys, os\ndef f(x):\n    if x == 2:\n        sys.exit(0)\n    if x == 3:\n        os._exit(0)\n    return x\n",
    calls: [[1], [2], [3], [4]],
    check: (r) => {
      assert.equal(r.results[0]!.ok && r.results[0]!.value, 1);
      assert.equal(r.results[1]!.ok, false);
      assert.equal(r.results[2]!.ok, false);
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
    name: "Python infinite loop is killed at the time limit",
    language: "python",
    code: "def f():\n    while True:\n        pass\n",
    timeoutMs: 1500,
    check: (r) => assert.equal(r.status, "timeout"),
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
    name: "Python unbounded memory growth (WebAssembly memory) is stopped",
    language: "python",
    code:
      "def f():\n    a = []\n    while True:\n        a.append(bytearray(10 ** 7))\n",
    memoryMb: 128,
    timeoutMs: 30_000,
    check: (r) => {
      assert.ok(
        r.status === "memory" ||
          (!r.results[0]!.ok && /MemoryError/.test(callError(r))),
        `status ${r.status}: ${callError(r)}`,
      );
    },
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
    name: "Python writes a file in Pyodide's file system for a later run",
    language: "python",
    code:
      "def f():\n    open('/tmp/leak.txt', 'w').write('x')\n    open('/home/pyodide/leak.txt', 'w').write('x')\n    return open('/tmp/leak.txt').read()\n",
    check: (r) => assert.equal(r.results[0]!.ok && r.results[0]!.value, "x"),
  },
  {
    name: "Python returns an object whose __eq__ is always True",
    language: "python",
    code:
      "class Eq:\n    def __eq__(self, other):\n        return True\nclass EqInt(int):\n    def __eq__(self, other):\n        return True\ndef f(k):\n    return Eq() if k else EqInt(1)\n",
    calls: [[1], [0]],
    check: (r) => {
      assert.equal(r.results[0]!.ok, false);
      assert.equal(r.results[1]!.ok, false);
      for (const c of r.results) {
        if (c.ok) assert.ok(!sameValue(c.value, 12345));
      }
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

for (const attack of ATTACKS) {
  Deno.test(`runCode() security: ${attack.name}`, opts, async () => {
    const req: RunRequest = {
      language: attack.language,
      code: attack.code,
      entry: attack.entry ?? "f",
      calls: attack.calls ?? [[]],
      timeoutMs: attack.timeoutMs ?? 20_000,
    };
    if (attack.memoryMb) req.memoryMb = attack.memoryMb;
    if (attack.maxOutputBytes) req.maxOutputBytes = attack.maxOutputBytes;
    const r = await sandbox.runCode(req);
    attack.check(r);
    await probeAfter(attack.language);
  });
}
