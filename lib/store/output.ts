/**
 * Output files of the commands (a report, exported requests, rendered
 * notebooks): checked before anything is written, and written through a
 * temporary file and a rename, so no command overwrites data it did not
 * create and a crash never leaves half a file.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { fsReason, isRunData } from "./run_dir.ts";

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
   * An existing file may be replaced (`--force`). Never a run's
   * `results.jsonl` or `manifest.json`, nor a folder.
   * @default {false}
   */
  force?: boolean;
  /**
   * An existing file this command wrote itself (a report's own page) is
   * replaced without `--force`.
   * @default none is
   */
  ours?: (path: string) => Promise<boolean>;
}

/**
 * Refuses an output path that would destroy data: a run's rows or manifest
 * (always), a folder, a path whose folder is missing, or an existing file
 * (unless `force`, or the file is the command's own).
 *
 * @param path The output path.
 * @param options What is written, the flag, `--force`.
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
 * await Deno.writeTextFile(`${dir}/results.jsonl`, "");
 * await assert.rejects(checkOutputPath(`${dir}/results.jsonl`, { ...opts, force: true }), /rows of the run/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkOutputPath(
  path: string,
  options: OutputPathOptions,
): Promise<void> {
  const { what, flag, force = false, ours } = options;
  const action = `Cannot write ${what} to ${path}`;
  if (await isRunData(path)) {
    const which = basename(path) === "manifest.json" ? "manifest" : "rows";
    throw new OutputPathError(
      `${action}: it is the ${which} of the run in ${
        dirname(path)
      }, which no output may replace (not even with --force); give another ${flag}`,
    );
  }
  const parent = dirname(resolve(path));
  let info;
  try {
    info = await Deno.stat(parent);
  } catch (error) {
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
    existing = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
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
  if (force || (ours !== undefined && await ours(path))) return;
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
