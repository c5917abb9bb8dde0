/**
 * The Pyodide backend's parts outside the worker: finding the package
 * folder, the Deno flags of a sandbox child, and the memory snapshot
 * workers restore from (made once by a trusted child, cached in a folder
 * only this user can write).
 *
 * @module
 */

import { ownUid } from "./_procfs.ts";

/** Languages the Deno-based workers know. */
export type DenoWorkerLanguage = "python" | "javascript";

const WORKER = new URL("./_worker.ts", import.meta.url).pathname;

/** Deno flags shared by every Deno-based sandbox child. */
export function childArgs(
  language: DenoWorkerLanguage,
  heapMb: number,
  pyodideDir: string | undefined,
  script = WORKER,
  timing = false,
): string[] {
  return [
    "run",
    "--no-check",
    "--no-config",
    "--no-lock",
    "--no-remote",
    "--no-npm",
    "--cached-only",
    "--no-prompt",
    // JavaScript runs V8 single-threaded: with no background compiler or
    // collector threads the process's CPU time is the candidate's own (a
    // fixed program's large-input time varied 50 % between processes with
    // them, 12 % without). No Maglev: in these workers it fell into a
    // deoptimise-reoptimise loop on allocation-site changes (seen with
    // --trace-deopt on count_inversions' merge sort, 25–50× slower from the
    // third measured size on, whatever the order), which TurboFan alone
    // does not (the bank's known JavaScript classes: 87.0 % measured as
    // declared with Maglev, 91.5 % without, 3 repetitions each).
    `--v8-flags=--max-old-space-size=${heapMb}${
      language === "javascript" ? ",--single-threaded,--no-maglev" : ""
    }${timing ? ",--liftoff-only" : ""}`,
    ...(language === "python" ? [`--allow-read=${pyodideDir}`] : []),
    script,
    language,
    ...(language === "python" ? [pyodideDir!] : []),
  ];
}

/** Finds the Pyodide package folder (real path) from the import map. */
export function findPyodideDir(): string {
  const tried: string[] = [];
  try {
    const url = import.meta.resolve("pyodide");
    if (url.startsWith("file:")) {
      const dir = new URL(".", url).pathname.replace(/\/$/, "");
      return Deno.realPathSync(dir);
    }
    tried.push(url);
  } catch (e) {
    tried.push(String(e));
  }
  let dir = new URL("../../", import.meta.url).pathname;
  for (let i = 0; i < 6; i++) {
    const candidate = `${dir}node_modules/pyodide`;
    try {
      Deno.statSync(`${candidate}/pyodide.mjs`);
      return Deno.realPathSync(candidate);
    } catch {
      tried.push(candidate);
    }
    dir = dir.replace(/[^/]+\/$/, "");
  }
  throw new Error(
    `Cannot find the Pyodide package: looked at ${
      tried.join(", ")
    }; run \`deno install\` in the project folder`,
  );
}

const uid = ownUid;

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined; // no --allow-env
  }
}

/**
 * The per-user cache folder: `$XDG_CACHE_HOME/calc-bench` or
 * `~/.cache/calc-bench` when the environment can be read, else
 * `/tmp/calc-bench-<uid>` (created 0700).
 */
export function cacheDir(): string | undefined {
  const me = uid();
  if (me === undefined) return undefined;
  const xdg = env("XDG_CACHE_HOME");
  const home = env("HOME");
  if (xdg) return `${xdg}/calc-bench`;
  if (home) return `${home}/.cache/calc-bench`;
  return `/tmp/calc-bench-${me}`;
}

/**
 * Whether a path is ours alone: owned by this uid and not writable by
 * group or others (a snapshot someone else could replace would run as
 * the trusted starting state of every worker).
 */
function ownedPrivately(path: string): boolean {
  try {
    const st = Deno.lstatSync(path);
    const me = uid();
    return st.uid === me && st.mode !== null && (st.mode & 0o022) === 0 &&
      !st.isSymlink;
  } catch {
    return false;
  }
}

/** Where a made snapshot is cached, keyed by Pyodide build and Deno version. */
export function snapshotCachePath(
  pyodideDir: string,
  dir = cacheDir(),
): string | undefined {
  if (dir === undefined) return undefined;
  try {
    const st = Deno.statSync(`${pyodideDir}/pyodide.asm.wasm`);
    const key = `${pyodideDir.split("/").pop()}-${st.size}-${
      st.mtime?.getTime() ?? 0
    }-${Deno.version.deno}`.replace(/[^A-Za-z0-9_.-]/g, "_");
    return `${dir}/pyodide-snapshot-${key}.bin`;
  } catch {
    return undefined;
  }
}

/**
 * The Pyodide memory snapshot workers restore from: read from the
 * per-user cache when it is there and both the folder and the file belong
 * to this user alone (processes running tests in parallel share it), else
 * made by `makeSnapshot` and cached (best effort: without write
 * permission it is kept in memory only).
 */
export async function loadSnapshot(
  pyodideDir: string,
  dir = cacheDir(),
): Promise<Uint8Array> {
  const path = snapshotCachePath(pyodideDir, dir);
  if (path && dir && ownedPrivately(dir) && ownedPrivately(path)) {
    try {
      const bytes = await Deno.readFile(path);
      if (bytes.length > 1_000_000) return bytes;
    } catch {
      // not cached yet
    }
  }
  const bytes = await makeSnapshot(pyodideDir);
  if (path && dir) {
    try {
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      if (!ownedPrivately(dir)) return bytes;
      const tmp = `${path}.${crypto.randomUUID()}.tmp`;
      await Deno.writeFile(tmp, bytes, { mode: 0o600, createNew: true });
      await Deno.rename(tmp, path);
    } catch {
      // no write permission: keep it in memory only
    }
  }
  return bytes;
}

/**
 * Makes a Pyodide memory snapshot in a trusted child (same permissions as a
 * worker, no candidate code), returned as bytes.
 */
export async function makeSnapshot(pyodideDir: string): Promise<Uint8Array> {
  const script = new URL("./_snapshot.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: childArgs("python", 2048, pyodideDir, script),
    clearEnv: true,
    env: {},
    cwd: "/",
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success || out.stdout.length < 1_000_000) {
    throw new Error(
      `Cannot load Pyodide: the snapshot child failed (${out.code}); ${
        new TextDecoder().decode(out.stderr).slice(0, 800)
      }`,
    );
  }
  return out.stdout;
}
