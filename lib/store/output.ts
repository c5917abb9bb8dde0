/**
 * Output files of the commands (a report, exported requests, rendered
 * notebooks): checked before anything is written, and written through a
 * temporary file and a rename, so no command overwrites data it did not
 * create and a crash never leaves half a file.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { enclosingRun, fsReason } from "./run_dir.ts";

/**
 * The mark in the `<head>` of every HTML page the tools write, so that a
 * command can tell its own earlier output (which it replaces) from a
 * user's file (which needs `--force`).
 */
export const GENERATOR_META = '<meta name="generator" content="calc-bench">';

/** An output path that must not be written (exit 2: the user's to change). */
export class OutputPathError extends Error {
  /** Always `"OutputPathError"`. */
  override name = "OutputPathError";
}

/** What {@linkcode checkOutputPath} is told about the output. */
export interface OutputPathOptions {
  /** What is written, for the message ("the report"). */
  what: string;
  /** The flag that names the path ("--out"). */
  flag: string;
  /**
   * An existing file may be replaced (`--force`). Never a file the
   * command reads, a run's files (but `runOwned`), nor a folder.
   * @default {false}
   */
  force?: boolean;
  /**
   * An existing file this command wrote itself (a report's own page) is
   * replaced without `--force`.
   * @default none is
   */
  ours?: (path: string) => Promise<boolean>;
  /**
   * Files (or folders) this command reads: the output may be none of
   * them, nor inside a folder of them, whatever the flags.
   * @default none
   */
  reads?: readonly string[];
  /**
   * The command makes the output's folder when it is missing (a folder of
   * outputs): a missing folder is then no problem. @default {false}
   */
  makesFolder?: boolean;
  /**
   * The names this output may take directly inside a run folder (the
   * command's own outputs there, such as `report.html`); any other path
   * in a run folder, or below one, is refused whatever the flags.
   * @default none
   */
  runOwned?: readonly string[];
}

/**
 * The real path a path names once written: symlinks (of the file and of
 * its folders), `..` and trailing slashes resolved; for a path that does
 * not exist yet, its nearest existing folder resolved and the rest joined.
 *
 * @param path A path, existing or not.
 * @returns Its absolute real path.
 * @throws {OutputPathError} for a symlink whose target does not exist
 *   (writing through it would create a file elsewhere).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { realOutputPath } from "./output.ts";
 * const dir = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.mkdir(`${dir}/a`);
 * await Deno.symlink(`${dir}/a`, `${dir}/link`);
 * assert.equal(await realOutputPath(`${dir}/link/../link/x.html`), `${dir}/a/x.html`);
 * assert.equal(await realOutputPath(`${dir}/new/deeper/`), `${dir}/new/deeper`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function realOutputPath(path: string): Promise<string> {
  // Resolve folder by folder, so `link/..` means the link's parent, as the
  // system resolves it, not the lexical parent.
  const parts = resolve(path).split(/[\\/]+/).filter(Boolean);
  let real = "/";
  for (let i = 0; i < parts.length; i++) {
    const next = join(real, parts[i]!);
    let info;
    try {
      info = await Deno.lstat(next);
    } catch {
      return join(next, ...parts.slice(i + 1));
    }
    if (info.isSymlink) {
      try {
        real = await Deno.realPath(next);
      } catch {
        throw new OutputPathError(
          `Cannot write to ${path}: ${next} is a symlink to a path that does not exist, and writing through it would create a file elsewhere; give another path`,
        );
      }
    } else real = parts[i] === ".." ? dirname(real) : next;
  }
  return real;
}

/**
 * Refuses an output path that would destroy data, whatever the flags:
 * a file the command reads (or a path inside a folder it reads), any path
 * in or below a run folder other than the outputs the command owns there
 * (`runOwned`), a folder, a path whose folder is missing. An existing
 * file is replaced only when it is the command's own earlier output
 * (`ours`) or with `force`. Paths are compared as real paths, so a
 * symlink, `..` or a trailing slash does not hide what a path is.
 *
 * @param path The output path.
 * @param options What is written, the flag, `--force`, what the command
 *   reads and owns.
 * @returns The real path to write to.
 * @throws {OutputPathError} naming the path and what to do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOutputPath } from "./output.ts";
 * const dir = await Deno.makeTempDir();
 * const opts = { what: "the report", flag: "--out" };
 * await checkOutputPath(`${dir}/new.html`, opts);
 * await Deno.writeTextFile(`${dir}/mine.html`, "keep me");
 * await assert.rejects(checkOutputPath(`${dir}/mine.html`, opts), /the file exists .*; give another --out, or add --force/);
 * await checkOutputPath(`${dir}/mine.html`, { ...opts, force: true });
 * await assert.rejects(checkOutputPath(`${dir}/./mine.html`, { ...opts, force: true, reads: [`${dir}/mine.html`] }), /which this command reads/);
 * await Deno.writeTextFile(`${dir}/results.jsonl`, "");
 * await assert.rejects(checkOutputPath(`${dir}/results.jsonl`, { ...opts, force: true }), /the rows of the run/);
 * await assert.rejects(checkOutputPath(`${dir}/summary.csv`, { ...opts, runOwned: ["report.html"] }), /only report\.html/);
 * await checkOutputPath(`${dir}/report.html`, { ...opts, runOwned: ["report.html"] });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkOutputPath(
  path: string,
  options: OutputPathOptions,
): Promise<string> {
  const {
    what,
    flag,
    force = false,
    ours,
    reads = [],
    runOwned = [],
    makesFolder = false,
  } = options;
  const action = `Cannot write ${what} to ${path}`;
  const real = await realOutputPath(path);
  const parent = dirname(real);
  const run = await enclosingRun(parent);
  if (run !== null && !(run === parent && runOwned.includes(basename(real)))) {
    const file = run === parent ? basename(real) : null;
    const which = file === "results.jsonl"
      ? `it is the rows of the run in ${run}`
      : file === "manifest.json"
      ? `it is the manifest of the run in ${run}`
      : `it is inside the run folder ${run}`;
    throw new OutputPathError(
      `${action}: ${which}, whose files are the run's own${
        runOwned.length > 0
          ? ` (this command writes only ${runOwned.join(", ")} there)`
          : ""
      }, and no output may replace them (not even with --force); give another ${flag} outside the run folder`,
    );
  }
  for (const input of reads) {
    let inputReal: string;
    try {
      inputReal = await Deno.realPath(input);
    } catch {
      continue; // not there: nothing to overwrite
    }
    if (real === inputReal || real.startsWith(`${inputReal}/`)) {
      throw new OutputPathError(
        `${action}: ${
          real === inputReal ? "it is" : "it is inside"
        } ${input}, which this command reads${
          real === resolve(path) ? "" : ` (${path} resolves to ${real})`
        }, and no output may replace an input (not even with --force); give another ${flag}`,
      );
    }
  }
  let info;
  try {
    info = await Deno.stat(parent);
  } catch (error) {
    if (makesFolder && error instanceof Deno.errors.NotFound) return real;
    throw new OutputPathError(
      `${action}: its folder ${parent} ${
        error instanceof Deno.errors.NotFound
          ? "does not exist"
          : `cannot be read (${fsReason(error)})`
      }; create it or give another ${flag}`,
    );
  }
  if (!info.isDirectory) {
    throw new OutputPathError(
      `${action}: ${parent} is a file, not a folder; give another ${flag}`,
    );
  }
  let existing;
  try {
    existing = await Deno.stat(real);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return real;
    throw new OutputPathError(
      `${action}: ${fsReason(error)}; give another ${flag}`,
    );
  }
  if (existing.isDirectory) {
    throw new OutputPathError(
      `${action}: it is a folder; give a file path such as ${
        join(path, "out")
      } with ${flag}`,
    );
  }
  if (force || (ours !== undefined && await ours(real))) return real;
  throw new OutputPathError(
    `${action}: the file exists (${existing.size} bytes${
      existing.mtime ? `, modified ${existing.mtime.toISOString()}` : ""
    }) and was not written by this command; give another ${flag}, or add --force to replace it`,
  );
}

/**
 * Writes a file whole or not at all: into a temporary file beside it, then
 * renamed over it.
 *
 * @param path The file to write.
 * @param data Its content.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeFileAtomic } from "./output.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a.txt`, "one");
 * await writeFileAtomic(`${dir}/a.txt`, "two");
 * assert.equal(await Deno.readTextFile(`${dir}/a.txt`), "two");
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a.txt"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
): Promise<void> {
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    if (typeof data === "string") await Deno.writeTextFile(tmp, data);
    else await Deno.writeFile(tmp, data);
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}

/** A file being written by {@linkcode openFileAtomic}. */
export interface AtomicFile {
  /** The temporary file to write into. */
  file: Deno.FsFile;
  /** Closes it and renames it over the target. */
  commit(): Promise<void>;
  /** Closes and removes it; the target is untouched. */
  abort(): Promise<void>;
}

/**
 * Opens a temporary file beside `path` for a long write (a stream of
 * requests); {@linkcode AtomicFile.commit} renames it over `path`, so the
 * old file stays whole until the new one is.
 *
 * @param path The file to write.
 * @returns The open temporary file with commit and abort.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openFileAtomic } from "./output.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/out.jsonl`, "old\n");
 * const out = await openFileAtomic(`${dir}/out.jsonl`);
 * await out.file.write(new TextEncoder().encode("new\n"));
 * assert.equal(await Deno.readTextFile(`${dir}/out.jsonl`), "old\n");
 * await out.commit();
 * assert.equal(await Deno.readTextFile(`${dir}/out.jsonl`), "new\n");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openFileAtomic(path: string): Promise<AtomicFile> {
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const file = await Deno.open(tmp, { write: true, createNew: true });
  let open = true;
  const close = () => {
    if (open) file.close();
    open = false;
  };
  return {
    file,
    async commit() {
      close();
      await Deno.rename(tmp, path);
    },
    async abort() {
      close();
      await Deno.remove(tmp).catch(() => {});
    },
  };
}
