/**
 * Naming, creating and checking run folders. A new run folder appears under
 * its final name only once it holds its manifest: it is made under a hidden
 * temporary name beside the final one, filled, then renamed, so a kill at
 * any moment leaves either no folder or a folder with a manifest.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { fsReason, osError } from "../os_error.ts";
import { safeFileName } from "../file_name.ts";

/**
 * The folder name of a run started at `date`: `<name>-<YYYYMMDD-HHMMSS>` (UTC),
 * the name made a safe, bounded file name first (`safeFileName`: a name
 * the config accepts stays as it is).
 *
 * @param name The sweep name from the config.
 * @param date The start time.
 * @returns The folder name (not a path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runDirName } from "./run_dir.ts";
 * assert.equal(runDirName("demo", new Date("2026-01-02T03:04:05Z")), "demo-20260102-030405");
 * assert.ok(runDirName("x".repeat(300), new Date()).length <= 96);
 * ```
 */
export function runDirName(name: string, date: Date): string {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.000Z
  const stamp = iso.slice(0, 10).replaceAll("-", "") + "-" +
    iso.slice(11, 19).replaceAll(":", "");
  return `${safeFileName(name)}-${stamp}`;
}

/** What is wrong with a folder given as a run (see {@linkcode RunDirError}). */
export type RunDirProblem =
  | "missing"
  | "not-a-folder"
  | "not-a-run"
  | "no-manifest"
  | "bad-manifest"
  | "no-rows"
  | "cannot-create";

/**
 * A folder given as a run folder cannot be used (missing, a file, not a
 * run, no rows, a broken manifest) or made: the user's input to fix, so a
 * CLI exits 2 on it. The message says which folder, why and what to do.
 */
export class RunDirError extends Error {
  /** Always `"RunDirError"`. */
  override name = "RunDirError";
  /** The folder as given. */
  readonly path: string;
  /** What is wrong with it. */
  readonly problem: RunDirProblem;

  /**
   * Makes the error.
   *
   * @param message "Cannot <action>: <why>; <what to do>".
   * @param path The folder as given.
   * @param problem What is wrong with it.
   */
  constructor(message: string, path: string, problem: RunDirProblem) {
    super(message);
    this.path = path;
    this.problem = problem;
  }
}

/** A file-system error in words: see `lib/os_error.ts`, which owns it. */
export { fsReason };

/** Options of {@linkcode createRunDir}. */
export interface CreateRunDirOptions {
  /** The start time, which names the folder. @default now */
  date?: Date;
  /**
   * Fills the folder before it gets its final name (writes the manifest):
   * called with the temporary folder and the run name it will have (the
   * final folder name). It must write at least one file. Called again with
   * the next name when the first is taken. @default the folder is made empty
   */
  init?: (dir: string, run: string) => Promise<void>;
}

/** A hidden temporary folder beside `finalPath`, for {@linkcode publish}. */
function partialPath(parent: string, name: string): string {
  return join(
    parent,
    `.${safeFileName(name)}.partial-${Deno.pid}-${
      crypto.randomUUID().slice(0, 8)
    }`,
  );
}

/** Temporary folders older than this were left by a killed sweep. */
const STALE_PARTIAL_MS = 60_000;

/**
 * Removes temporary run folders (`.<name>.partial-*`) a killed sweep left
 * in `parent` more than a minute ago. Failures are ignored: they are
 * hidden and harmless.
 */
async function removeStalePartials(parent: string): Promise<void> {
  try {
    const now = Date.now();
    for await (const entry of Deno.readDir(parent)) {
      if (!entry.isDirectory || !/^\..+\.partial-\d+-/.test(entry.name)) {
        continue;
      }
      const path = join(parent, entry.name);
      const mtime = (await Deno.stat(path)).mtime?.getTime() ?? now;
      if (now - mtime > STALE_PARTIAL_MS) {
        await Deno.remove(path, { recursive: true });
      }
    }
  } catch {
    // Leave them for the next run.
  }
}

/** Makes `dir` (and its parents) or throws a RunDirError naming it. */
async function makeParent(dir: string, what: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (error) {
    const why = error instanceof Deno.errors.AlreadyExists
      ? "it is a file, not a folder"
      : fsReason(error);
    throw new RunDirError(
      `Cannot create a run folder in ${dir}: ${why}; ${what}`,
      dir,
      "cannot-create",
    );
  }
}

/**
 * Creates a fresh run folder under `outputDir`, named
 * {@linkcode runDirName}; when that name is taken (two runs in one second),
 * a `-2`, `-3`... suffix is added. With `init`, the folder is filled under
 * a hidden temporary name and then renamed, so it never exists under its
 * final name without what `init` wrote (the manifest); temporary folders a
 * killed sweep left more than a minute ago are removed.
 *
 * @param outputDir The folder that holds run folders (created if missing).
 * @param name The sweep name.
 * @param options The start time (`date`) and what to write into the
 *   folder before it appears (`init`).
 * @returns The path of the new folder.
 * @throws {RunDirError} when `outputDir` cannot be made (a file is in the way).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRunDir } from "./run_dir.ts";
 * const base = await Deno.makeTempDir();
 * const date = new Date("2026-01-02T03:04:05Z");
 * const a = await createRunDir(base, "t", { date });
 * const b = await createRunDir(base, "t", {
 *   date,
 *   init: (dir, run) => Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify({ run })),
 * });
 * assert.ok(a.endsWith("t-20260102-030405"));
 * assert.ok(b.endsWith("t-20260102-030405-2"));
 * assert.equal(JSON.parse(await Deno.readTextFile(`${b}/manifest.json`)).run, "t-20260102-030405-2");
 * await Deno.remove(base, { recursive: true });
 * ```
 */
export async function createRunDir(
  outputDir: string,
  name: string,
  options: CreateRunDirOptions = {},
): Promise<string> {
  const { date = new Date(), init } = options;
  await makeParent(outputDir, "set outputDir in the config to a folder path");
  const base = runDirName(name, date);
  const nameOf = (i: number) => i === 1 ? base : `${base}-${i}`;
  if (init === undefined) {
    // An empty folder: mkdir alone claims the name atomically.
    for (let i = 1;; i++) {
      const path = join(outputDir, nameOf(i));
      try {
        await Deno.mkdir(path);
        return path;
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
    }
  }
  await removeStalePartials(outputDir);
  const partial = partialPath(outputDir, base);
  await Deno.mkdir(partial);
  try {
    for (let i = 1;; i++) {
      const path = join(outputDir, nameOf(i));
      if (await exists(path)) continue;
      await init(partial, nameOf(i));
      // Renaming onto a run folder fails (it is not empty), so a name
      // taken meanwhile is never overwritten: try the next.
      if (await renamed(partial, path)) return path;
    }
  } catch (error) {
    await Deno.remove(partial, { recursive: true }).catch(() => {});
    throw error;
  }
}

/** Options of {@linkcode createRunDirAt}. */
export interface CreateRunDirAtOptions {
  /**
   * Fills the folder before it appears at `path` (writes the manifest); it
   * must write at least one file.
   */
  init: (dir: string) => Promise<void>;
}

/**
 * Creates a run folder at exactly `path` (a `--run-dir`), which must not
 * exist yet: filled under a hidden temporary name beside it, then renamed,
 * so the folder never exists without what `init` wrote.
 *
 * @param path The run folder to make (its parents are made too).
 * @param options What to write into it before it appears.
 * @returns `path`.
 * @throws {RunDirError} when the parent cannot be made or `path` appeared meanwhile.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRunDirAt } from "./run_dir.ts";
 * const base = await Deno.makeTempDir();
 * const dir = await createRunDirAt(`${base}/a/run`, {
 *   init: (tmp) => Deno.writeTextFile(`${tmp}/manifest.json`, "{}"),
 * });
 * assert.equal(await Deno.readTextFile(`${dir}/manifest.json`), "{}");
 * assert.deepEqual([...Deno.readDirSync(`${base}/a`)].map((e) => e.name), ["run"]);
 * await Deno.remove(base, { recursive: true });
 * ```
 */
export async function createRunDirAt(
  path: string,
  options: CreateRunDirAtOptions,
): Promise<string> {
  const parent = dirname(resolve(path));
  await makeParent(parent, "give --run-dir a path whose parent is a folder");
  await removeStalePartials(parent);
  const partial = partialPath(parent, basename(resolve(path)));
  await Deno.mkdir(partial);
  try {
    await options.init(partial);
    if (await renamed(partial, path)) return path;
    throw new RunDirError(
      `Cannot create the run folder ${path}: it appeared while the sweep started; give another --run-dir`,
      path,
      "cannot-create",
    );
  } catch (error) {
    await Deno.remove(partial, { recursive: true }).catch(() => {});
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Renames a folder; false when `to` is taken (a non-empty folder or a file). */
async function renamed(from: string, to: string): Promise<boolean> {
  try {
    await Deno.rename(from, to);
    return true;
  } catch (error) {
    if (await exists(to)) return false;
    throw error;
  }
}

/** Options of {@linkcode checkRunDir}. */
export interface CheckRunDirOptions {
  /** What the caller wants to do, for the message ("write a report of"). @default "read the run" */
  action?: string;
  /**
   * The flag that named the folder (`--run`, `--resume`, `--plan-from`):
   * the message then says "Cannot use <flag> <path>". @default none (an argument)
   */
  flag?: string;
  /**
   * Require at least one stored row; when false, a run with a manifest
   * and no `results.jsonl` yet (killed before its first row) passes.
   * @default {true}
   */
  rows?: boolean;
}

/** Up to three run folders directly inside `dir` (for "give one of them"). */
async function runsInside(dir: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isDirectory || entry.name.startsWith(".")) continue;
      if (
        await exists(join(dir, entry.name, "manifest.json")) ||
        await exists(join(dir, entry.name, "results.jsonl"))
      ) found.push(join(dir, entry.name));
    }
  } catch {
    // unreadable: no hint
  }
  return found.sort().reverse().slice(0, 3);
}

/**
 * Checks that a folder is a run a command can read: it exists, is a
 * folder, holds `results.jsonl` as a file and (by default) at least one
 * complete row, and its `manifest.json`, when there, is a JSON object (a
 * truncated manifest cannot say which rows are the run's). A folder that
 * holds run folders (such as `outputs/`) is named as such, with some of
 * them to give instead. Reads only the start of the results file.
 *
 * @param path The folder as given.
 * @param options The action or flag (for the message) and whether rows are required.
 * @throws {RunDirError} "Cannot <action> <path>: <why>; <what to do>"
 *   (or "Cannot use <flag> <path>: ...").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkRunDir, RunDirError } from "./run_dir.ts";
 * const dir = await Deno.makeTempDir();
 * await assert.rejects(checkRunDir(dir), (e) => e instanceof RunDirError && e.problem === "not-a-run");
 * await assert.rejects(checkRunDir(dir, { flag: "--run" }), /^RunDirError: Cannot use --run /);
 * await Deno.writeTextFile(`${dir}/results.jsonl`, "");
 * await assert.rejects(checkRunDir(dir), /has no rows yet/);
 * await Deno.writeTextFile(`${dir}/results.jsonl`, '{"key":"a"}\n');
 * await checkRunDir(dir);
 * await Deno.writeTextFile(`${dir}/manifest.json`, '{"run": "x", "conf');
 * await assert.rejects(checkRunDir(dir), /manifest\.json is not valid JSON/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkRunDir(
  path: string,
  options: CheckRunDirOptions = {},
): Promise<void> {
  const { action = "read the run", flag, rows = true } = options;
  const head = flag === undefined
    ? `Cannot ${action} ${path}`
    : `Cannot use ${flag} ${path}`;
  const fail = (why: string, todo: string, problem: RunDirProblem) =>
    new RunDirError(`${head}: ${why}; ${todo}`, path, problem);
  const runHint = `give ${
    flag === undefined ? "" : `${flag} `
  }a run folder written by deno task sweep (outputs/<name>-<time>), which holds manifest.json and results.jsonl`;
  let info;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    throw fail(
      error instanceof Deno.errors.NotFound
        ? `no such folder (${resolve(path)})`
        : fsReason(error),
      runHint,
      "missing",
    );
  }
  if (!info.isDirectory) {
    throw fail("it is a file, not a run folder", runHint, "not-a-folder");
  }
  const results = join(path, "results.jsonl");
  const manifest = join(path, "manifest.json");
  const hasManifest = await exists(manifest);
  if (!(await exists(results))) {
    if (!hasManifest) {
      const inside = await runsInside(path);
      throw fail(
        inside.length > 0
          ? `it is not a run folder but a folder of runs (such as ${
            inside.join(", ")
          })`
          : "it is not a run folder (no manifest.json, no results.jsonl)",
        inside.length > 0
          ? `give ${flag === undefined ? "" : `${flag} `}one of them`
          : runHint,
        "not-a-run",
      );
    }
    if (rows) {
      throw fail(
        "the run has no rows yet (no results.jsonl)",
        `resume it with deno task sweep --resume ${path}`,
        "no-rows",
      );
    }
  } else if (!(await Deno.stat(results)).isFile) {
    const what = (await Deno.stat(results)).isDirectory
      ? "is a folder, not a file"
      : "is not a file";
    throw fail(
      `its results.jsonl ${what} (${resolve(results)})`,
      "a run folder holds its rows in the file results.jsonl that deno task sweep writes; give the run folder the sweep wrote",
      "not-a-run",
    );
  }
  if (hasManifest) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await Deno.readTextFile(manifest));
    } catch (error) {
      throw fail(
        `its manifest.json is not valid JSON (${
          error instanceof SyntaxError ? error.message : fsReason(error)
        }: a truncated or edited file), so its rows cannot be checked against the run they belong to`,
        "restore the manifest.json the sweep wrote",
        "bad-manifest",
      );
    }
    if (
      typeof parsed !== "object" || parsed === null || Array.isArray(parsed)
    ) {
      throw fail(
        "its manifest.json is not a run manifest (a JSON object)",
        "restore the manifest.json the sweep wrote",
        "bad-manifest",
      );
    }
  }
  let complete = true;
  try {
    if (rows) complete = await hasCompleteLine(results);
  } catch (error) {
    throw resultsFileError(error, {
      path: results,
      action: `${action} ${path}`,
    });
  }
  if (!complete) {
    throw fail(
      "the run has no rows yet (results.jsonl holds no complete line)",
      `resume it with deno task sweep --resume ${path}`,
      "no-rows",
    );
  }
}

/**
 * A run's `results.jsonl` that cannot be read, in words (see
 * `lib/os_error.ts`): a folder in its place, a loop of links, no
 * permission, ... naming the file and what it should be.
 *
 * @param error What reading the file threw.
 * @param context `path`, the `results.jsonl` path, and `action`, what
 *   could not be done ("write a report of run").
 * @returns The error to throw: an `OsInputError` (exit 2) or
 *   `OsFailureError` (exit 1), or `error` itself when it is not an OS error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultsFileError } from "./run_dir.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/results.jsonl`);
 * const error = await Deno.readTextFile(`${dir}/results.jsonl`).catch((e) => e);
 * const mapped = resultsFileError(error, { path: `${dir}/results.jsonl`, action: "read the run" });
 * assert.equal(mapped.name, "OsInputError");
 * assert.match(mapped.message, /results\.jsonl is a folder, not a file \(the run's rows/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function resultsFileError(
  error: unknown,
  { path, action }: { path: string; action: string },
): Error {
  return osError(error, {
    action,
    path,
    expected: "a file (the run's rows, one JSON object per line)",
    todo:
      "give a run folder whose results.jsonl is the file of rows deno task sweep wrote",
  });
}

/** Whether a file has a newline-terminated line that is not blank. */
async function hasCompleteLine(path: string): Promise<boolean> {
  const file = await Deno.open(path, { read: true });
  try {
    const buffer = new Uint8Array(64 * 1024);
    let content = false;
    for (;;) {
      const n = await file.read(buffer);
      if (n === null) return false;
      for (let i = 0; i < n; i++) {
        const b = buffer[i]!;
        if (b === 10) {
          if (content) return true;
        } else if (b !== 32 && b !== 9 && b !== 13) content = true;
      }
    }
  } finally {
    file.close();
  }
}

/**
 * The files of a run folder that the tools themselves write and own: the
 * rows and the manifest (never overwritten by an output), their copies,
 * caches and set-aside lines, temporary files of a rewrite, and the derived
 * outputs (`report.html`, `summary.csv`) that each command writes anew.
 */
const RUN_DATA = /^(results\.jsonl|manifest\.json)$/;
const RUN_OWN =
  /^(results\.jsonl|manifest\.json|results\.bad-[^/]*\.jsonl|\.results\.[^/]*|report\.html|summary\.csv|[^/]*\.tmp)$/;

/**
 * Whether a file name inside a run folder is one the tools write there
 * (see `RUN_OWN` above), so a folder holding only such files is a run (or
 * what is left of one), and any other file is the user's.
 *
 * @param name A file name (no folder).
 * @returns Whether a run folder may hold it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRunFileName } from "./run_dir.ts";
 * assert.equal(isRunFileName("results.jsonl"), true);
 * assert.equal(isRunFileName("results.bad-2026-01-01T00-00-00-000Z.jsonl"), true);
 * assert.equal(isRunFileName("problems.json"), false);
 * ```
 */
export function isRunFileName(name: string): boolean {
  return RUN_OWN.test(name);
}

/**
 * Whether a path is the rows or the manifest of a run (a folder holding
 * `manifest.json` or `results.jsonl`): data no output may overwrite.
 *
 * @param path Any path.
 * @returns Whether writing to it would destroy a run's data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRunData } from "./run_dir.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/results.jsonl`, "");
 * assert.equal(await isRunData(`${dir}/results.jsonl`), true);
 * assert.equal(await isRunData(`${dir}/manifest.json`), true);
 * assert.equal(await isRunData(`${dir}/report.html`), false);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function isRunData(path: string): Promise<boolean> {
  if (!RUN_DATA.test(basename(path))) return false;
  return await isRunFolder(dirname(resolve(path)));
}

/**
 * Whether a folder is a run folder: it holds `manifest.json` or
 * `results.jsonl` (a run, or what is left of one).
 *
 * @param dir Any path.
 * @returns Whether it is a run folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRunFolder } from "./run_dir.ts";
 * const dir = await Deno.makeTempDir();
 * assert.equal(await isRunFolder(dir), false);
 * await Deno.writeTextFile(`${dir}/manifest.json`, "{}");
 * assert.equal(await isRunFolder(dir), true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function isRunFolder(dir: string): Promise<boolean> {
  for (const name of ["manifest.json", "results.jsonl"]) {
    try {
      await Deno.lstat(join(dir, name));
      return true;
    } catch {
      // not there
    }
  }
  return false;
}

/**
 * The run folder that `dir` is or is inside (the nearest), or null.
 *
 * @param dir An absolute, real folder path (see `realOutputPath`).
 * @returns The run folder, or null when `dir` is in none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { enclosingRun } from "./run_dir.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/results.jsonl`, "");
 * assert.equal(await enclosingRun(`${dir}/a/b`), dir);
 * assert.equal(await enclosingRun("/"), null);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function enclosingRun(dir: string): Promise<string | null> {
  for (let at = resolve(dir);; at = dirname(at)) {
    if (await isRunFolder(at)) return at;
    if (dirname(at) === at) return null;
  }
}
