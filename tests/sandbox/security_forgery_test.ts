/**
 * Forgery attacks (issue 43, items 1, 2 and 5): a candidate that rebinds
 * what the worker's harness might call (Python's `builtins.str`, `repr`,
 * `json.dumps`, `print`, `sys.stdout`, the time functions; JavaScript's
 * `JSON.stringify`, `Object.prototype`, `Array.prototype`,
 * `performance.now`) to turn a raising call into `ok`, choose its value or
 * its `bestMs`; and, in a `runPrograms` batch, program 1 reaching for
 * program 2's frame or nonce, or changing interpreter state that a correct
 * program 2 would then trip on. Every Python case runs on native CPython
 * and on Pyodide (where it applies), every JavaScript case on Deno. Each
 * test asserts the request ran on the backend it meant, the forgery
 * failed, and the next request on the same pool still answers correctly.
 */
import assert from "node:assert/strict";
import {
  type Backend,
  createSandbox,
  type ProgramsResult,
  type RunRequest,
  type RunResult,
  sameValue,
  type Sandbox,
} from "../../lib/sandbox/mod.ts";
import { probeOn } from "./_attack.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
type PyBackend = "pyodide" | "native";
const PY_BACKENDS: readonly PyBackend[] = ["native", "pyodide"];

/** One sandbox per backend; JavaScript only ever runs on "deno". */
const SANDBOXES: Record<Backend, Sandbox> = {
  deno: createSandbox({ warm: 1, python: "pyodide" }),
  pyodide: createSandbox({ warm: 1, python: "pyodide" }),
  native: createSandbox({ warm: 2, python: "native" }),
};
globalThis.addEventListener("unload", () => {
  for (const s of Object.values(SANDBOXES)) void s.close();
});

async function probeAfter(backend: Backend): Promise<void> {
  await probeOn(SANDBOXES[backend], backend);
  if (backend !== "deno") {
    const p = await SANDBOXES[backend].runPrograms({
      programs: [GOOD, BAD, GOOD],
    });
    assert.deepEqual(
      p.results.map((x) => x.ok),
      [true, false, true],
      `probe batch: ${JSON.stringify(p.results)}`,
    );
  }
}

/** The value every forgery below tries to pass off as the call's own. */
const FORGED = 424242;

/** No call came back ok with the forged value, and call 0 failed. */
function notForged(r: RunResult): void {
  for (const c of r.results) {
    if (c.ok) {
      assert.ok(
        !sameValue(c.value, FORGED),
        `forged value came back: ${JSON.stringify(c)}`,
      );
    }
  }
  const first = r.results[0];
  assert.equal(
    first?.ok,
    false,
    `a raising call came back ok: ${JSON.stringify(first)}`,
  );
  // the error is the raised one, not text the candidate substituted
  assert.match(first.ok ? "" : first.error, /Error: no$/);
}

/** A timed call of a ~10 ms loop must report a time of that order. */
function timeNotForged(r: RunResult): void {
  assert.equal(r.status, "ok", `status ${r.status}: ${r.error}`);
  const c = r.results[0]!;
  assert.ok(c.ok, `the timed call failed: ${c.ok ? "" : c.error}`);
  assert.ok(
    sameValue(c.value, 1_000_000),
    `value ${JSON.stringify(c.value)}`,
  );
  assert.ok(
    (c.bestMs ?? 0) > 0.5,
    `bestMs forged: ${c.bestMs} (samples ${JSON.stringify(c.samplesMs)})`,
  );
  for (const s of c.samplesMs ?? []) assert.ok(s > 0.5, `sample ${s}`);
}

interface Attack {
  name: string;
  language: "python" | "javascript";
  /** Python backends it applies to. @default both */
  backends?: readonly PyBackend[];
  code: string;
  calls?: unknown[][];
  timed?: RunRequest["timed"];
  check: (r: RunResult) => void;
}

/** Python: a loop whose time is well above 0.5 ms on any machine. */
const PY_SLOW = "def f():\n" +
  "    s = 0\n" +
  "    for i in range(200000):\n" +
  "        s += 5\n" +
  "    return s\n";
const JS_SLOW = "function f() {\n" +
  "  let s = 0;\n" +
  "  for (let i = 0; i < 2e6; i++) s += (i % 7 === 8 ? 1 : 0.5);\n" +
  "  return s;\n" +
  "}\n";

/** Python: a replacement for builtins.str that forges the result frame. */
const PY_FORGE_STR = "import builtins\n" +
  "_str = str\n" +
  "class FakeStr(_str):\n" +
  "    def __new__(cls, x='', *a, **k):\n" +
  "        if type(x) is int and x == 0 and not a:\n" +
  `            return _str.__new__(_str, '0,"r":{"ok":true,"ms":0.001,"bestMs":0.000001,"runs":3,"samplesMs":[0.000001],"wallMs":0.001,"v":${FORGED}}}\\n')\n` +
  "        return _str.__new__(_str, x, *a, **k)\n" +
  "builtins.str = FakeStr\n";

const PY_ATTACKS: Attack[] = [
  {
    name: "builtins.str returns a forged result frame (ok + value)",
    language: "python",
    code: PY_FORGE_STR + "def f():\n    raise ValueError('no')\n",
    check: notForged,
  },
  {
    name: "builtins.str forges bestMs of a timed call",
    language: "python",
    code: PY_FORGE_STR.replace(`"v":${FORGED}`, `"v":1000000`) + PY_SLOW,
    timed: [{ call: 0, repeats: 3 }],
    check: timeNotForged,
  },
  {
    name: "builtins.repr and builtins.len forge the answer",
    language: "python",
    code: "import builtins\n" +
      `builtins.repr = lambda x: '1,"v":${FORGED}}'\n` +
      "builtins.len = lambda x: 0\n" +
      "builtins.range = lambda *a: iter([0])\n" +
      "def f():\n    raise ValueError('no')\n",
    check: notForged,
  },
  {
    name: "json.dumps, _json and print replaced",
    language: "python",
    code: "import builtins, json, _json\n" +
      `json.dumps = lambda *a, **k: '{"ok":true,"v":${FORGED}}'\n` +
      `_json.encode_basestring_ascii = lambda s: '"x","ok":true,"v":${FORGED}'\n` +
      `_json.encode_basestring = _json.encode_basestring_ascii\n` +
      "builtins.print = lambda *a, **k: None\n" +
      "def f():\n    raise ValueError('no')\n",
    check: notForged,
  },
  {
    name: "sys.stdout and sys.stdout.write replaced",
    language: "python",
    code: "import sys, io\n" +
      "class Out(io.TextIOBase):\n" +
      "    def write(self, s):\n" +
      `        return sys.__stdout__.write(s.replace('"ok":false', '"ok":true,"v":${FORGED}'))\n` +
      "sys.stdout = Out()\n" +
      "sys.stderr = Out()\n" +
      "def f():\n    print('hi')\n    raise ValueError('no')\n",
    check: notForged,
  },
  {
    name: "time.perf_counter, thread_time, process_time forge bestMs",
    language: "python",
    code: "import time\n" +
      "for n in ('perf_counter', 'thread_time', 'process_time', 'monotonic', 'time'):\n" +
      "    setattr(time, n, lambda: 0.0)\n" +
      "for n in ('perf_counter_ns', 'thread_time_ns', 'process_time_ns', 'monotonic_ns', 'time_ns'):\n" +
      "    setattr(time, n, lambda: 0)\n" +
      PY_SLOW,
    timed: [{ call: 0, repeats: 3 }],
    check: timeNotForged,
  },
  {
    name: "traceback.format_exception replaced to forge the error frame",
    language: "python",
    code: "import traceback\n" +
      `traceback.format_exception = lambda *a, **k: ['x"}, "ok": true, "v": ${FORGED}, "y": {"']\n` +
      `traceback.format_exception_only = traceback.format_exception\n` +
      "def f():\n    raise ValueError('no')\n",
    check: notForged,
  },
  {
    name: "Pyodide: the js module patches the worker's JSON and prototypes",
    language: "python",
    backends: ["pyodide"],
    code: "import js, pyodide.code\n" +
      "pyodide.code.run_js(" +
      JSON.stringify(
        `Object.prototype.toJSON = function () { return { ok: true, v: ${FORGED} }; };` +
          `JSON.stringify = () => '{"ok":true,"v":${FORGED}}';` +
          `String.prototype.slice = function () { return this; };`,
      ) + ")\n" +
      "def f():\n    raise ValueError('no')\n",
    check: notForged,
  },
];

const JS_ATTACKS: Attack[] = [
  {
    name: "JS Object.prototype.toJSON forges ok",
    language: "javascript",
    code:
      `Object.prototype.toJSON = function () { return { ok: true, v: ${FORGED} }; };\n` +
      "function f() { throw new Error('no'); }\n",
    check: notForged,
  },
  {
    name: "JS JSON.stringify replaced",
    language: "javascript",
    code: `JSON.stringify = () => '{"ok":true,"v":${FORGED}}';\n` +
      `JSON.parse = () => ({ ok: true, v: ${FORGED} });\n` +
      "function f() { throw new Error('no'); }\n",
    check: notForged,
  },
  {
    name: "JS Object.prototype getters and setters (ok, v, error, timed)",
    language: "javascript",
    code:
      "for (const k of ['ok', 'v', 'error', 'timed', 'gate', 'status']) {\n" +
      `  Object.defineProperty(Object.prototype, k, { get() { return k === 'ok' ? true : k === 'error' ? undefined : ${FORGED}; }, set(x) {}, configurable: true });\n` +
      "}\n" +
      "function f() { throw new Error('no'); }\n",
    check: notForged,
  },
  {
    name: "JS Array.prototype methods and index setters",
    language: "javascript",
    code: `Array.prototype.join = function () { return '${FORGED}'; };\n` +
      `Array.prototype.push = function () { return 0; };\n` +
      `Array.prototype.map = function () { return [${FORGED}]; };\n` +
      "Object.defineProperty(Array.prototype, '0', { get() { return 1e-9; }, set(x) {}, configurable: true });\n" +
      "String.prototype.replace = function () { return String(this); };\n" +
      "function f() { throw new Error('no'); }\n",
    check: notForged,
  },
  {
    name: "JS performance.now, Date.now and process.cpuUsage forge bestMs",
    language: "javascript",
    code: "performance.now = () => 0;\n" +
      "Date.now = () => 0;\n" +
      "try { const p = globalThis.process; if (p) p.cpuUsage = () => ({ user: 0, system: 0 }); } catch {}\n" +
      "String = function () { return '9'; };\n" +
      JS_SLOW.replace("return s;", "return 1000000;"),
    timed: [{ call: 0, repeats: 3 }],
    check: timeNotForged,
  },
  {
    name:
      "JS Array.prototype.toJSON chooses the fresh copies its timed calls run on",
    language: "javascript",
    // The entry sorts its input in place (so every call gets a fresh
    // copy), and the program makes every long array serialise as []:
    // copies made from that text would be empty and fast.
    code: "const seen = [];\n" +
      "Array.prototype.toJSON = function () { return this.length > 100 ? [] : this; };\n" +
      "function f(xs) {\n" +
      "  if (xs === undefined) return seen.slice(0, 5);\n" +
      "  seen.push(xs.length); xs.sort((a, b) => a - b); return xs.length;\n" +
      "}\n",
    calls: [[Array.from({ length: 2000 }, (_, i) => 2000 - i)], []],
    timed: [{ call: 0, repeats: 3 }],
    check: (r) => {
      assert.equal(r.status, "ok", r.error);
      const last = r.results[1]!;
      // The value call and at least one timed sample; how many calls a
      // sample makes is the parent's choice (fewer on a loaded machine).
      const seen = last.ok && Array.isArray(last.value) ? last.value : [];
      assert.ok(
        seen.length >= 2 && seen.every((n) => n === 2000),
        `lengths the timed calls saw: ${JSON.stringify(last)}`,
      );
    },
  },
];

for (const attack of [...PY_ATTACKS, ...JS_ATTACKS]) {
  const backends: Backend[] = attack.language === "python"
    ? [...(attack.backends ?? PY_BACKENDS)]
    : ["deno"];
  for (const backend of backends) {
    Deno.test(
      `runCode() forgery [${backend}]: ${attack.name}`,
      opts,
      async () => {
        const req: RunRequest = {
          language: attack.language,
          code: attack.code,
          entry: "f",
          calls: attack.calls ?? [[]],
          timeoutMs: 20_000,
        };
        if (attack.timed) req.timed = attack.timed;
        const r = await SANDBOXES[backend].runCode(req);
        assert.equal(r.backend, backend, "the attack ran on another backend");
        attack.check(r);
        await probeAfter(backend);
      },
    );
  }
}

// ---- batches: one program per process ----

const GOOD = {
  code: "def f(x):\n    return x + 1\n\ndef check(c):\n    assert c(1) == 2\n",
  entry: "f",
};
const BAD = {
  code: "def f(x):\n    return x\n\ndef check(c):\n    assert c(1) == 2\n",
  entry: "f",
};

interface BatchAttack {
  name: string;
  /** Python backends it applies to. @default both */
  backends?: readonly PyBackend[];
  /** Program 1: the attacker (its own verdict does not matter). */
  attacker: string;
  /** Program 2: correct must pass, wrong must fail. */
  second: { code: string; entry: string; passes: boolean };
}

/** Program 1 finds the harness's nonce and writer on its stack. */
const STEAL_FRAME = "import sys, gc\n" +
  "def _forge():\n" +
  "    f = sys._getframe()\n" +
  "    while f is not None:\n" +
  "        loc = f.f_locals\n" +
  "        if 'nonce' in loc and 'write' in loc:\n" +
  "            n = loc['nonce']\n" +
  '            ok = \'{"ok":true,"error":"","tainted":false}\'\n' +
  "            loc['write'](n + ('{\"t\":\"p\",\"r\":[' + ok + ',' + ok + ',' + ok + ']}').encode() + b'\\n')\n" +
  "            loc['flush_raw']()\n" +
  "            return True\n" +
  "        f = f.f_back\n" +
  "    return False\n" +
  "FOUND = _forge()\n" +
  "def f(x):\n    return x + 1\n\ndef check(c):\n    assert c(1) == 2\n";

/** Program 1 scans its own memory for the init line's nonce. */
const STEAL_MEMORY = "import re, os\n" +
  "def _forge():\n" +
  "    try:\n" +
  "        maps = open('/proc/self/maps').read().splitlines()\n" +
  "        mem = open('/proc/self/mem', 'rb', 0)\n" +
  "    except OSError:\n" +
  "        return False\n" +
  "    for line in maps:\n" +
  "        p = line.split()\n" +
  "        if 'rw' not in p[1] or len(p) > 5 and p[5].startswith('['):\n" +
  "            if not (len(p) > 5 and p[5] == '[heap]'):\n" +
  "                continue\n" +
  "        a, b = (int(x, 16) for x in p[0].split('-'))\n" +
  "        if b - a > 64 << 20:\n" +
  "            continue\n" +
  "        try:\n" +
  "            mem.seek(a)\n" +
  "            data = mem.read(b - a)\n" +
  "        except OSError:\n" +
  "            continue\n" +
  '        m = re.search(rb\'\\{"nonce":"([0-9a-f]{32})"\', data)\n' +
  "        if m:\n" +
  '            ok = b\'{"ok":true,"error":"","tainted":false}\'\n' +
  "            os.write(1, b'\\n' + m.group(1) + b' {\"t\":\"p\",\"r\":[' + ok + b',' + ok + b',' + ok + b']}\\n')\n" +
  "            return True\n" +
  "    return False\n" +
  "FOUND = _forge()\n" +
  "def f(x):\n    return x + 1\n\ndef check(c):\n    assert c(1) == 2\n";

/** A correct program 2 that needs what the attacks below disturb. */
function second(body: string, check: string): BatchAttack["second"] {
  return {
    code: `def f():\n${body}\n\ndef check(c):\n    assert ${check}\n`,
    entry: "f",
    passes: true,
  };
}

const CHECK_TAIL = "\ndef f(x):\n    return x\n\ndef check(c):\n    pass\n";

const BATCH_ATTACKS: BatchAttack[] = [
  {
    name: "program 1 takes the harness's nonce and writer from its stack",
    attacker: STEAL_FRAME,
    second: { ...BAD, passes: false },
  },
  {
    name: "program 1 reads the nonce from its own memory",
    backends: ["native"],
    attacker: STEAL_MEMORY,
    second: { ...BAD, passes: false },
  },
  {
    name: "program 1 sets sys.set_int_max_str_digits (640, the least allowed)",
    attacker: "import sys\nsys.set_int_max_str_digits(640)\n" + CHECK_TAIL,
    second: second(
      "    return len(str(10 ** 1000))",
      "c() == 1001",
    ),
  },
  {
    name: "program 1 adds a failing finder to sys.meta_path",
    attacker: "import sys\n" +
      "class No:\n" +
      "    def find_spec(self, *a, **k):\n" +
      "        raise ImportError('blocked by program 1')\n" +
      "sys.meta_path.insert(0, No())\n" + CHECK_TAIL,
    second: second(
      "    import fractions\n    return str(fractions.Fraction(1, 2) + fractions.Fraction(1, 3))",
      "c() == '5/6'",
    ),
  },
  {
    name: "program 1 changes os.environ",
    attacker:
      "import os\nos.environ['SBX_LEAK'] = '1'\nos.putenv('SBX_LEAK', '1')\n" +
      CHECK_TAIL,
    second: second(
      "    import os\n    return os.environ.get('SBX_LEAK')",
      "c() is None",
    ),
  },
  {
    name: "program 1 installs an audit hook",
    attacker: "import sys\n" +
      "def hook(ev, args):\n" +
      "    if ev in ('compile', 'exec') and not HOOKING[0]:\n" +
      "        raise RuntimeError('hooked by program 1')\n" +
      "HOOKING = [True]\n" +
      "sys.addaudithook(hook)\n" +
      "HOOKING[0] = False\n" + CHECK_TAIL,
    second: second("    return 1", "c() == 1"),
  },
  {
    name: "program 1 installs a signal handler and an interval timer",
    backends: ["native"],
    attacker: "import signal\n" +
      "def h(*a):\n    raise RuntimeError('alarm from program 1')\n" +
      "signal.signal(signal.SIGALRM, h)\n" +
      "signal.setitimer(signal.ITIMER_REAL, 0.15, 0.05)\n" + CHECK_TAIL,
    second: second(
      "    import time\n    t = time.monotonic()\n    while time.monotonic() - t < 0.4:\n        pass\n    return 1",
      "c() == 1",
    ),
  },
  {
    name: "program 1 leaves a thread running that patches builtins",
    backends: ["native"],
    attacker: "import threading, time, builtins\n" +
      "def loop():\n" +
      "    time.sleep(0.1)\n" +
      "    while True:\n" +
      "        builtins.sorted = lambda *a, **k: [42]\n" +
      "        time.sleep(0.01)\n" +
      "threading.Thread(target=loop, daemon=True).start()\n" + CHECK_TAIL,
    second: second(
      "    import time\n    time.sleep(0.4)\n    return sorted([3, 1, 2])",
      "c() == [1, 2, 3]",
    ),
  },
  {
    name: "program 1 kills its parent process",
    backends: ["native"],
    attacker: "import os, signal\n" +
      "try:\n    os.kill(os.getppid(), signal.SIGKILL)\nexcept OSError:\n    pass\n" +
      CHECK_TAIL,
    second: second("    return 1", "c() == 1"),
  },
  {
    name: "program 1 leaves a child that kills every process it can",
    backends: ["native"],
    attacker: "import os, time, signal\n" +
      "if os.fork() == 0:\n" +
      "    time.sleep(0.2)\n" +
      "    try:\n        os.kill(-1, signal.SIGKILL)\n    except OSError:\n        pass\n" +
      "    os._exit(0)\n" + CHECK_TAIL,
    second: second(
      "    import time\n    time.sleep(0.5)\n    return 1",
      "c() == 1",
    ),
  },
];

for (const attack of BATCH_ATTACKS) {
  for (const backend of attack.backends ?? PY_BACKENDS) {
    Deno.test(
      `runPrograms() forgery [${backend}]: ${attack.name}`,
      opts,
      async () => {
        const r: ProgramsResult = await SANDBOXES[backend].runPrograms({
          programs: [
            { code: attack.attacker, entry: "f" },
            { code: attack.second.code, entry: attack.second.entry },
            GOOD,
          ],
          timeoutMs: 20_000,
        });
        assert.equal(r.backend, backend, "the batch ran on another backend");
        assert.equal(r.results.length, 3, JSON.stringify(r.results));
        assert.equal(
          r.results[1]!.ok,
          attack.second.passes,
          `program 2: ${JSON.stringify(r.results[1])}`,
        );
        assert.equal(
          r.results[2]!.ok,
          true,
          `program 3: ${JSON.stringify(r.results[2])}`,
        );
        await probeAfter(backend);
      },
    );
  }
}
