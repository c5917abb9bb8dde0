/**
 * Merging the shard folders of one sweep (`deno task sweep <config>
 * --shard i/n`) into one run folder.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import {
  identityMismatch,
  loadEntries,
  rowKey,
  runIdentity,
  shardOfKey,
  workItems,
} from "../runner/mod.ts";
import {
  enclosingRun,
  identityOf,
  type Manifest,
  readResults,
  realOutputPath,
  ResultsWriter,
  writeManifest,
} from "../store/mod.ts";
import type { SuiteList } from "../suites/types.ts";
import type { ResultRow } from "../types.ts";
import { MergeInputError } from "./error.ts";
import { safeFileName } from "../file_name.ts";
import { listed } from "./_listed.ts";
import {
  checkDistinct,
  checkSet,
  readShardRun,
  type ShardRun,
} from "./_shard_runs.ts";

/** Options of {@linkcode mergeShards}. */
export interface MergeOptions {
  /** The suites a config may name (`lib/suites/mod.ts`'s `SUITES`): the planned keys are computed from them. */
  suites: SuiteList;
  /** The run folder to create; it must not exist yet. */
  out: string;
  /** The merged run's name (its rows' `run`). @default the name of `out` */
  run?: string;
  /** Folder relative dataset paths resolve against. @default the first shard's manifest `baseDir`, else the working directory */
  baseDir?: string;
}

/** What {@linkcode mergeShards} wrote. */
export interface MergeResult {
  /** The merged run folder. */
  runDir: string;
  /** Rows written (every planned key once). */
  rows: number;
  /** Shards merged. */
  shards: number;
  /** Error rows among them. */
  errors: number;
  /** Rows that came from the response cache. */
  cached: number;
}

/** The keys the config plans, each with the shard it belongs to. */
async function plannedKeys(
  manifest: Manifest,
  options: MergeOptions,
): Promise<Set<string>> {
  const config = manifest.config;
  const baseDir = resolve(options.baseDir ?? manifest.baseDir ?? Deno.cwd());
  let entries;
  try {
    const loaded = await loadEntries(config, {
      suites: options.suites,
      baseDir,
      limit: manifest.limit,
    });
    // Only the keys are needed: the runs close at once.
    await loaded.close();
    const { inputs } = loaded;
    entries = loaded.entries;
    const refused = identityMismatch({
      action: "merge",
      recorded: identityOf(manifest) ?? undefined,
      now: runIdentity({ config, entries, inputs, limit: manifest.limit }),
      instead: "run the sweep again from the inputs as they are now",
    });
    if (refused !== null) throw new MergeInputError(refused);
  } catch (error) {
    if (error instanceof MergeInputError) throw error;
    throw new MergeInputError(
      `Cannot merge: the shards' config cannot be loaded here to list the keys it plans: ${
        (error as Error).message
      }`,
    );
  }
  const keys = new Set<string>();
  for (const model of config.models) {
    for (
      const item of workItems(model.name, entries, {
        samples: config.samples,
      })
    ) {
      keys.add(
        rowKey({
          model: model.name,
          question: item.question.id,
          template: item.templateId,
          sample: item.sample,
        }),
      );
    }
  }
  return keys;
}

/**
 * Reads every row key of every shard and checks it: the key its fields
 * make, planned, in its own shard, in no other folder, readable. Returns
 * which folder holds each key.
 */
async function checkRows(
  runs: readonly ShardRun[],
  planned: ReadonlySet<string>,
): Promise<Map<string, number>> {
  const owner = new Map<string, number>();
  const duplicated: string[] = [];
  const foreign: string[] = [];
  const unplanned: string[] = [];
  const mismatched: string[] = [];
  const otherRun: string[] = [];
  for (const [i, run] of runs.entries()) {
    const path = join(run.dir, "results.jsonl");
    const bad: number[] = [];
    for await (
      const row of readResults(path, { onBadLine: (line) => bad.push(line) })
    ) {
      const key = typeof row?.key === "string" ? row.key : null;
      if (key === null) continue;
      const own = rowKey({
        model: row.model,
        question: row.question_id,
        template: row.template,
        sample: row.sample,
      });
      if (own !== key) {
        mismatched.push(`${key} (in ${run.dir}; its fields make ${own})`);
        continue;
      }
      const prior = owner.get(key);
      if (prior === i) continue; // resume semantics: the first copy counts
      if (prior !== undefined) {
        duplicated.push(`${key} (in ${runs[prior]!.dir} and ${run.dir})`);
        continue;
      }
      if (!planned.has(key)) {
        unplanned.push(`${key} (in ${run.dir})`);
        continue;
      }
      if (shardOfKey(key, run.shard.count) !== run.shard.index) {
        foreign.push(
          `${key} (in ${run.dir}, shard ${run.shard.index}/${run.shard.count}; it belongs to shard ${
            shardOfKey(key, run.shard.count)
          })`,
        );
        continue;
      }
      if (row.run !== run.manifest.run) {
        otherRun.push(
          `${key} (in ${run.dir}; its run is ${row.run}, not ${run.manifest.run})`,
        );
        continue;
      }
      owner.set(key, i);
    }
    if (bad.length > 0) {
      throw new MergeInputError(
        `Cannot merge ${run.dir}: line ${
          listed(bad.map(String))
        } of ${path} are not result rows; resume that shard (deno task sweep --resume ${run.dir}) to set them aside and redo their keys`,
      );
    }
  }
  if (mismatched.length > 0) {
    throw new MergeInputError(
      `Cannot merge: ${mismatched.length} row(s) have a key that their model, question_id, template and sample do not make: ${
        listed(mismatched)
      }; the rows were edited — resume that shard from an unedited results.jsonl`,
    );
  }
  if (duplicated.length > 0) {
    throw new MergeInputError(
      `Cannot merge: ${duplicated.length} key(s) are in two shard folders: ${
        listed(duplicated)
      }; the shards overlap — were they split with the same --shard count?`,
    );
  }
  if (foreign.length > 0) {
    throw new MergeInputError(
      `Cannot merge: ${foreign.length} key(s) are in the wrong shard: ${
        listed(foreign)
      }; merge folders written by deno task sweep --shard i/n`,
    );
  }
  if (unplanned.length > 0) {
    throw new MergeInputError(
      `Cannot merge: ${unplanned.length} key(s) are not planned by the shards' config: ${
        listed(unplanned)
      }; merge shards of one sweep`,
    );
  }
  if (otherRun.length > 0) {
    throw new MergeInputError(
      `Cannot merge: ${otherRun.length} row(s) carry another run's id: ${
        listed(otherRun)
      }; a shard folder holds only its own run's rows — resume that shard from an unedited results.jsonl`,
    );
  }
  const missing: string[] = [];
  const missingBy = new Map<number, number>();
  for (const key of planned) {
    if (owner.has(key)) continue;
    missing.push(key);
    const s = shardOfKey(key, runs[0]!.shard.count);
    missingBy.set(s, (missingBy.get(s) ?? 0) + 1);
  }
  if (missing.length > 0) {
    const where = [...missingBy].sort((a, b) => a[0] - b[0]).map(([s, n]) => {
      const run = runs.find((r) => r.shard.index === s)!;
      return `${n} of shard ${s} (deno task sweep --resume ${run.dir})`;
    });
    throw new MergeInputError(
      `Cannot merge: ${missing.length} planned key(s) have no row: ${
        listed(missing)
      }; finish the shards first: ${where.join(", ")}`,
    );
  }
  return owner;
}

/** The merged manifest: the first shard's, with counts, sessions and sources of all. */
function mergedManifest(
  runs: readonly ShardRun[],
  run: string,
  counts: Manifest["counts"],
): Manifest {
  const first = runs[0]!.manifest;
  const sessions = runs.flatMap((r) => r.manifest.sessions ?? [])
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const starts = runs.map((r) => r.manifest.startedAt).sort();
  const ends = runs.map((r) => r.manifest.endedAt ?? "").sort();
  const manifest: Manifest = {
    ...first,
    run,
    total: counts.rows,
    counts,
    sessions,
    startedAt: starts[0] ?? first.startedAt,
    endedAt: ends.at(-1) || null,
    interrupted: false,
    mergedFrom: runs.map((r) => ({
      dir: r.dir,
      run: r.manifest.run,
      shard: r.shard,
    })),
  };
  delete manifest.shard;
  delete manifest.batches;
  return manifest;
}

/**
 * Merges the shard folders of one sweep into one run folder: checks that
 * no folder is given twice (by real path), that they are runs of the same config (see `rowConfig` in
 * `lib/config/row_config.ts`), seed and `--limit`, that every shard 1..n
 * is there once, that every key the config plans has exactly one row and
 * no folder holds another shard's or an unplanned key. The rule: the
 * merged run holds exactly the keys the shards' config plans, each row
 * taken from the one folder whose shard the key hashes to (`shardOfKey`);
 * a row of any other key — unplanned, in the wrong shard, in two folders,
 * or whose `key` is not the one its `model`, `question_id`, `template` and
 * `sample` make — is not dropped or kept quietly: the merge is refused
 * with the first keys named. Then it writes `<out>/manifest.json` (the config, counts,
 * all sessions, `mergedFrom`) and `<out>/results.jsonl` (each row's `run`
 * set to the new run's name) through the store's `ResultsWriter`, with the
 * CSV copy it keeps beside the rows. The folder appears whole (written beside
 * it, then renamed) or not at all.
 *
 * @param dirs The shard run folders, in any order.
 * @param options The suites, the output folder.
 * @returns What was written.
 * @throws {MergeInputError} for anything that cannot be merged (nothing
 *   is written).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeShards } from "./merge.ts";
 * import { MergeInputError } from "./error.ts";
import { safeFileName } from "../file_name.ts";
 * await assert.rejects(
 *   mergeShards(["/nonexistent-shard"], { suites: [], out: "/tmp/never-written" }),
 *   MergeInputError,
 * );
 * ```
 */
export async function mergeShards(
  dirs: readonly string[],
  options: MergeOptions,
): Promise<MergeResult> {
  const out = resolve(options.out);
  try {
    await Deno.lstat(out);
    throw new MergeInputError(
      `Cannot merge into ${options.out}: it already exists; give a new folder with --out`,
    );
  } catch (error) {
    if (error instanceof MergeInputError) throw error;
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new MergeInputError(
        `Cannot merge into ${options.out}: ${(error as Error).message}`,
      );
    }
  }
  const around = await enclosingRun(await realOutputPath(dirname(out)));
  if (around !== null) {
    throw new MergeInputError(
      `Cannot merge into ${options.out}: it is inside the run folder ${around}, and the merged run would write among that run's files; give --out a new folder outside it`,
    );
  }
  await checkDistinct(dirs);
  const runs: ShardRun[] = [];
  for (const dir of dirs) runs.push(await readShardRun(dir));
  checkSet(runs);
  runs.sort((a, b) => a.shard.index - b.shard.index);
  const planned = await plannedKeys(runs[0]!.manifest, options);
  const owner = await checkRows(runs, planned);

  // Everything checked: write beside the target, then rename.
  const run = options.run ?? basename(out);
  const tmp = join(
    dirname(out),
    `.${safeFileName(basename(out))}.merging-${Deno.pid}`,
  );
  const counts = { rows: 0, errors: 0, cached: 0 };
  try {
    await Deno.mkdir(dirname(out), { recursive: true });
    await Deno.mkdir(tmp);
    // Through the sweep's writer, so the merged run has the CSV copy that
    // loadRuns reads instead of parsing the JSONL.
    const writer = await ResultsWriter.open(join(tmp, "results.jsonl"));
    try {
      for (const [i, shardRun] of runs.entries()) {
        for await (
          const row of readResults(join(shardRun.dir, "results.jsonl"), {
            onBadLine: () => {},
          })
        ) {
          if (owner.get(row.key) !== i) continue;
          owner.delete(row.key); // first copy only
          const merged: ResultRow = { ...row, run };
          counts.rows++;
          if (merged.status === "error") counts.errors++;
          if (merged.cached) counts.cached++;
          await writer.append(merged);
        }
      }
    } finally {
      await writer.close();
    }
    await writeManifest(tmp, mergedManifest(runs, run, counts));
    await Deno.rename(tmp, out);
  } catch (error) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw new Error(
      `Cannot write the merged run ${options.out}: ${(error as Error).message}`,
    );
  }
  return {
    runDir: out,
    rows: counts.rows,
    shards: runs.length,
    errors: counts.errors,
    cached: counts.cached,
  };
}
