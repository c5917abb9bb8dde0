/**
 * Where each worker runs: the command line of a sandbox child per backend.
 *
 * - `deno`: JavaScript/TypeScript in a Deno child with no permissions.
 * - `pyodide`: Python as Pyodide (CPython in WebAssembly) in such a Deno
 *   child, which may read the Pyodide folder only.
 * - `native`: Debian's CPython inside bubblewrap: new user, pid, net, ipc,
 *   uts and cgroup namespaces (`--unshare-all`, no further user
 *   namespaces), an unprivileged uid (as root, `setpriv` drops to nobody
 *   before bubblewrap starts, so the process limit counts), all
 *   capabilities dropped, `--die-with-parent`, `--new-session`, read-only
 *   binds of only the interpreter, its standard library and the system
 *   libraries it loads, a read-only root, `/dev` and `/proc` (no process
 *   writes another's `/proc/<pid>/mem`; the sandbox's pid 1 is hidden
 *   under an empty read-only `/proc/1`), a size-capped tmpfs `/tmp` as the
 *   only writable place, an empty environment; the harness
 *   (`_py_native.ts`) sets the rlimits and a seccomp filter before any
 *   candidate code exists.
 *
 * The kill: the parent kills bubblewrap's outer process; its death takes
 * the sandbox's pid 1 (bubblewrap's init, `--die-with-parent`) and with it
 * the whole pid namespace. So nothing in the sandbox may reach pid 1:
 * ptrace and the like are denied by the harness's filter, `/proc` is
 * read-only and `/proc/1` hidden.
 *
 * The tmpfs has no inode limit nor `noexec`: bubblewrap 0.8 has no option
 * for either (only `--size`), and a tmpfs mounted by the parent would need
 * root. The inodes' memory is kernel memory, charged to the worker's
 * memory cgroup where it has one; `noexec` would narrow nothing, as
 * `ctypes` already runs native code in the candidate's process.
 *
 * @module
 */

import { ownUid } from "./_procfs.ts";

/** A worker backend. */
export type Backend = "deno" | "pyodide" | "native";

/** How Python candidates run: chosen per sandbox. */
export type PythonChoice = "auto" | "native" | "pyodide";

/** What a native Python worker needs from the machine. */
export interface NativePython {
  /** bubblewrap's path and version. */
  bwrap: string;
  bwrapVersion: string;
  /** The interpreter (real path) and its version, e.g. "3.11.2". */
  python: string;
  pythonVersion: string;
  /** `setpriv`, used to drop from root to nobody before bubblewrap. */
  setpriv: string | null;
  /** Read-only binds (host path = sandbox path). */
  binds: string[];
}

/** Size of the private `/tmp` and largest file the candidate may write. */
export const NATIVE_TMP_BYTES = 32 << 20;
export const NATIVE_FILE_BYTES = 16 << 20;
/** Processes and threads the candidate's uid may have in its sandbox. */
export const NATIVE_NPROC = 16;
/** The uid and gid the candidate runs as (nobody). */
const NOBODY = 65534;

const BWRAP_PATHS = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"];
const PYTHON = "/usr/bin/python3";
const SETPRIV_PATHS = ["/usr/bin/setpriv", "/bin/setpriv"];

function firstFile(paths: string[]): string | null {
  for (const p of paths) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // not there
    }
  }
  return null;
}

function isRoot(): boolean {
  return ownUid() === 0;
}

/**
 * A trusted command's trimmed stdout, run with an empty environment in
 * `/`; throws with its exit code and stderr when it fails.
 */
export async function output(
  command: string,
  args: string[],
): Promise<string> {
  const out = await new Deno.Command(command, {
    args,
    clearEnv: true,
    env: {},
    cwd: "/",
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) {
    throw new Error(
      `${command} exited with ${out.code}: ${
        new TextDecoder().decode(out.stderr).slice(0, 300)
      }`,
    );
  }
  return text;
}

const INSTALL =
  "install Debian's bubblewrap and python3 (`apt-get install -y bubblewrap python3`)";

/**
 * Finds what a native Python worker needs, or says what is missing.
 *
 * @param bwrapPath Use this bubblewrap instead of looking in the system
 *   folders.
 * @returns The paths and versions, or `{ missing }` with what to install.
 */
export async function findNativePython(bwrapPath?: string): Promise<
  NativePython | { missing: string }
> {
  if (Deno.build.os !== "linux") {
    return { missing: `bubblewrap needs Linux (this is ${Deno.build.os})` };
  }
  const looked = bwrapPath === undefined ? BWRAP_PATHS : [bwrapPath];
  const bwrap = firstFile(looked);
  if (bwrap === null) {
    return {
      missing: `bubblewrap (bwrap) is not installed (looked at ${
        looked.join(", ")
      }); ${INSTALL}`,
    };
  }
  let python: string;
  try {
    python = Deno.realPathSync(PYTHON);
  } catch {
    return { missing: `${PYTHON} is not installed; ${INSTALL}` };
  }
  if (!python.startsWith("/usr/")) {
    return {
      missing:
        `${PYTHON} points outside /usr (${python}); the sandbox binds system paths only; ${INSTALL}`,
    };
  }
  const setpriv = isRoot() ? firstFile(SETPRIV_PATHS) : null;
  if (isRoot() && setpriv === null) {
    return {
      missing:
        "running as root needs setpriv (Debian's util-linux) to start the sandbox as nobody; install util-linux",
    };
  }
  let facts: string[];
  let bwrapVersion: string;
  try {
    facts = (await output(python, [
      "-I",
      "-S",
      "-c",
      "import sys, os; print(sys.version.split()[0]); print(getattr(sys.implementation, '_multiarch', '')); print(os.path.dirname(os.__file__))",
    ])).split("\n");
    bwrapVersion = (await output(bwrap, ["--version"])).replace(
      /^bubblewrap\s*/,
      "",
    );
  } catch (error) {
    return {
      missing: `cannot run ${python} or ${bwrap} (${
        error instanceof Error ? error.message : error
      }); ${INSTALL}`,
    };
  }
  const [pythonVersion = "", multiarch = "", stdlib = ""] = facts;
  const binds = [python, stdlib];
  const libDirs = [
    multiarch ? `/usr/lib/${multiarch}` : "",
    "/usr/lib64",
  ];
  for (const dir of libDirs) {
    try {
      if (dir && Deno.statSync(dir).isDirectory) binds.push(dir);
    } catch {
      // absent on this architecture
    }
  }
  // The dynamic loader lives in /usr/lib itself on some architectures.
  try {
    for (const e of Deno.readDirSync("/usr/lib")) {
      if (/^ld-linux.*\.so/.test(e.name)) binds.push(`/usr/lib/${e.name}`);
    }
  } catch {
    // no /usr/lib
  }
  if (!stdlib.startsWith("/usr/")) {
    return {
      missing:
        `${python}'s standard library is outside /usr (${stdlib}); ${INSTALL}`,
    };
  }
  return { bwrap, bwrapVersion, python, pythonVersion, setpriv, binds };
}

/**
 * The command line that starts a native Python worker.
 *
 * @param native What `findNativePython` found.
 * @param harness The harness (`python3 -c <script> <args…>`).
 * @param memoryMb The request's memory limit (the address-space cap derives from it).
 * @returns The program and its arguments.
 */
export function nativeCommand(
  native: NativePython,
  harness: { script: string; args: readonly string[] },
  memoryMb: number,
): { command: string; args: string[] } {
  const bwrap = [
    "--unshare-all",
    "--unshare-user", // --unshare-all only tries; --disable-userns needs it
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--uid",
    String(NOBODY),
    "--gid",
    String(NOBODY),
    "--hostname",
    "sandbox",
    ...native.binds.flatMap((p) => ["--ro-bind", p, p]),
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--symlink",
    "usr/bin",
    "/bin",
    "--proc",
    "/proc",
    // the sandbox's pid 1 (bubblewrap's init, the same uid) hidden under
    // an empty read-only folder: its /proc/1/mem is not even there
    "--tmpfs",
    "/proc/1",
    "--remount-ro",
    "/proc/1",
    // read-only: no process may write another's memory (/proc/<pid>/mem)
    "--remount-ro",
    "/proc",
    "--dev",
    "/dev",
    "--remount-ro",
    "/dev",
    "--size",
    String(NATIVE_TMP_BYTES),
    "--tmpfs",
    "/tmp",
    "--remount-ro",
    "/",
    "--chdir",
    "/tmp",
    "--clearenv",
    "--",
    native.python,
    "-I",
    "-S",
    "-B",
    "-c",
    harness.script,
    ...harness.args,
    String(memoryMb),
    String(NATIVE_NPROC),
    String(NATIVE_FILE_BYTES),
  ];
  if (native.setpriv === null) return { command: native.bwrap, args: bwrap };
  return {
    command: native.setpriv,
    args: [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      "--clear-groups",
      "--inh-caps=-all",
      "--bounding-set=-all",
      native.bwrap,
      ...bwrap,
    ],
  };
}
