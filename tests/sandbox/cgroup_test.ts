/**
 * `_cgroup.ts` against the real /sys/fs/cgroup of this machine (create,
 * limit, place a process, read its OOM kill and CPU time, remove, clean a
 * dead process's folder) and its fallback (a missing or unwritable root
 * gives `"rlimit"`).
 */
import assert from "node:assert/strict";
import {
  cgroupCpuNs,
  cgroupSupport,
  cleanStale,
  WORKER_PREFIX,
  WorkerCgroup,
} from "../../lib/sandbox/_cgroup.ts";
import { createSandbox } from "../../lib/sandbox/mod.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const support = cgroupSupport();

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("this machine gives the cgroup level (v1 memory and pids)", () => {
  assert.equal(support.level, "cgroup", support.detail);
  assert.equal(support.version, 1);
  assert.ok(exists(support.dirs.memory) && exists(support.dirs.pids));
  assert.ok(support.dirs.cpu && exists(support.dirs.cpu), "cpuacct");
});

Deno.test(
  "a worker cgroup limits memory, holds its process tree, counts its OOM kill and CPU, and goes",
  opts,
  async () => {
    const cg = WorkerCgroup.create(support, 32, 8);
    const dirs = cg.dirs;
    assert.equal(dirs.length, 3);
    cg.limitMemory(32);
    assert.equal(
      Deno.readTextFileSync(
        `${support.dirs.memory}/${
          dirs[0]!.split("/").pop()
        }/memory.limit_in_bytes`,
      )
        .trim(),
      String(32 << 20),
    );
    assert.equal(
      Deno.readTextFileSync(`${dirs[1]}/pids.max`).trim(),
      "8",
    );
    // a child that forks and then allocates 200 MiB: the tree is inside
    // and the kernel kills it at 32 MiB
    const { command, args } = cg.wrap("/usr/bin/python3", [
      "-c",
      "import os, time\nif os.fork() == 0:\n    time.sleep(0.3)\n    b = bytearray(b'1') * (200 << 20)\n    os._exit(0)\nos.wait()\nwhile True: sum(range(1000))\n",
    ]);
    const child = new Deno.Command(command, {
      args,
      stdout: "null",
      stderr: "null",
    }).spawn();
    // Python starts and forks within a few hundred ms; more under load.
    for (let i = 0; i < 150 && cg.procs().length < 2; i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(cg.procs().includes(child.pid), `${cg.procs()}`);
    assert.equal(cg.procs().length, 2, "the fork is in the cgroup too");
    for (let i = 0; i < 100 && cg.oomKills() === 0; i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.equal(cg.oomKills(), 1);
    const a = cg.cpuNs()!, b = cg.cpuNs()!;
    assert.ok(a > 0 && b >= a, `${a} ${b}`);
    assert.ok(await cg.remove(), "removed");
    const status = await child.status;
    assert.equal(status.signal, "SIGKILL");
    for (const d of dirs) assert.ok(!exists(d), `${d} left`);
  },
);

Deno.test("a dead process's folder is removed with what it holds", async () => {
  const parent = support.dirs.pids.replace(/\/[^/]+$/, "");
  const dead = `${parent}/calc-sandbox-999999999`;
  Deno.mkdirSync(`${dead}/w1`, { recursive: true });
  assert.ok(await cleanStale(support) >= 1);
  assert.ok(!exists(dead));
  assert.ok(exists(support.dirs.pids), "a live process's folder stays");
});

Deno.test("no cgroup root, or an unwritable one, gives the rlimit level", () => {
  assert.equal(cgroupSupport("/nonexistent/cgroup").level, "rlimit");
  // a v1 layout where this process's folder cannot be made
  const root = Deno.makeTempDirSync();
  try {
    const own = /^\d+:memory:(.*)$/m.exec(
      Deno.readTextFileSync("/proc/self/cgroup"),
    )?.[1] ?? "/";
    Deno.mkdirSync(`${root}/memory${own}`, { recursive: true });
    Deno.writeTextFileSync(`${root}/memory/memory.limit_in_bytes`, "0");
    Deno.mkdirSync(`${root}/pids`);
    Deno.writeTextFileSync(`${root}/pids/cgroup.procs`, "");
    // a file where the folder must go: mkdir fails as it would read-only
    Deno.writeTextFileSync(
      `${root}/memory${own}/calc-sandbox-${Deno.pid}`.replace(/\/+/g, "/"),
      "",
    );
    const s = cgroupSupport(root);
    assert.equal(s.level, "rlimit");
    assert.match(s.detail, /no writable cgroup/);
    assert.throws(
      () => WorkerCgroup.create(s, 64, 8),
      /Cannot make a worker cgroup/,
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("cgroupCpuNs reads v1 cpuacct and v2 cpu.stat", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/cpuacct.usage`, "123456789\n");
    Deno.writeTextFileSync(`${dir}/cpu.stat`, "usage_usec 42\nuser_usec 40\n");
    assert.equal(cgroupCpuNs(dir, 1), 123456789);
    assert.equal(cgroupCpuNs(dir, 2), 42000);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test(
  "every backend's worker runs in a cgroup of its own, removed when it ends",
  opts,
  async () => {
    const workers = () =>
      new Set(
        [...Deno.readDirSync(support.dirs.memory)].filter((e) => e.isDirectory)
          .map((e) => e.name),
      );
    const before = workers();
    const s = createSandbox({ warm: 0, python: "native" });
    const js = createSandbox({ warm: 0, python: "pyodide" });
    try {
      assert.equal((await s.backend("python")).isolation, "cgroup");
      const code =
        "import os\ndef f():\n    return open('/proc/self/cgroup').read()\n";
      const r = await s.runCode({
        language: "python",
        code,
        entry: "f",
        calls: [[]],
      });
      assert.equal(r.isolation, "cgroup");
      assert.equal(r.status, "ok", r.error);
      const j = await js.runCode({
        language: "javascript",
        code: "function f() { return 1; }",
        entry: "f",
        calls: [[]],
      });
      assert.equal(j.isolation, "cgroup");
      assert.equal(j.status, "ok", j.error);
      const p = await js.runCode({
        language: "python",
        code: "def f():\n    return 1\n",
        entry: "f",
        calls: [[]],
      });
      assert.equal(p.backend, "pyodide");
      assert.equal(p.isolation, "cgroup");
      assert.equal(p.status, "ok", p.error);
    } finally {
      await s.close();
      await js.close();
    }
    // other test files' pools (in this process too, under --parallel)
    // may still hold theirs: only this file's
    const mine = () =>
      [...workers()].filter((n) =>
        !before.has(n) && n.startsWith(WORKER_PREFIX)
      );
    let left = mine();
    for (let i = 0; i < 150 && left.length > 0; i++) {
      await new Promise((res) => setTimeout(res, 20));
      left = mine();
    }
    assert.deepEqual(left, [], "worker cgroups left");
  },
);
