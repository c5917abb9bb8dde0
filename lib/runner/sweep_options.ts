/**
 * What a sweep is given ({@linkcode SweepOptions}) and what it returns
 * ({@linkcode SweepResult}).
 *
 * @module
 */
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import type { CreateProviderOptions, Provider } from "../providers/mod.ts";
import type { SuiteList } from "../suites/types.ts";
import type { ProgressMode } from "./progress.ts";
import type { Shard } from "./shard.ts";

/** Makes the provider of a model (the providers module's `createProvider`). */
export type ProviderFactory = (
  model: ModelConfig,
  sweep: SweepConfig,
  options?: CreateProviderOptions,
) => Provider;

/** Options of `runSweep` (`sweep.ts`). */
export interface SweepOptions {
  /**
   * The suites a config may name, in registry order (`lib/suites/mod.ts`'s
   * `SUITES`; `lib/mod.ts`'s `runSweep` passes them). Their sim skills
   * answer for `sim` models.
   */
  suites: SuiteList;
  /** Run folder to create and use. @default `<outputDir>/<name>-<YYYYMMDD-HHMMSS>` */
  runDir?: string;
  /** Run folder to resume; the config is taken from its manifest. */
  resume?: string;
  /** Use the response cache. @default config.cache */
  cache?: boolean;
  /** Cache folder. @default `<outputDir>/.cache` */
  cacheDir?: string;
  /** Progress display, or a callback called a few times a second. @default "auto" */
  progress?: ProgressMode;
  /** Aborting stops scheduling, aborts calls in flight and saves what is done. */
  signal?: AbortSignal;
  /**
   * A model whose first this-many rows of the session all fail with the
   * same client error (4xx but 429: a wrong model id, a refused
   * parameter) is stopped there, and the result names it. 0 never stops.
   * @default 20
   */
  failFast?: number;
  /** Environment lookup for API keys. @default Deno.env.get */
  env?: (name: string) => string | undefined;
  /** Folder relative dataset paths resolve against. @default the working directory */
  baseDir?: string;
  /** At most this many questions per suite (a quick try). */
  limit?: number;
  /** Provider factory, overriding `lib/providers` (tests, custom backends). */
  createProvider?: ProviderFactory;
  /**
   * Run only this shard of the work (`--shard i/n`, 1-based; see
   * `shard.ts`). Recorded in the manifest; a resumed run keeps its own.
   */
  shard?: Shard;
  /**
   * The cluster job this shard belongs to (`--shard slurm|k8s`; see
   * `shardFromEnv` in `shard.ts`): the run folder is
   * `<outputDir>/<name>-<job>/shard-<i>-of-<n>/`, resumed when it holds a
   * run (a requeued or retried task). Needs `shard`; not with `runDir` or
   * `resume`.
   */
  job?: string;
}

/** What a sweep did. */
export interface SweepResult {
  /** The run folder (`<outputDir>/<name>-<timestamp>` or the resumed one). */
  runDir: string;
  /**
   * Rows the sweep plans in all (the shard's rows for a shard); an
   * adaptive design that stopped plans only the rows it asked.
   */
  total: number;
  /** Rows written in this session. */
  done: number;
  /** Rows already stored before this session (resume). */
  skipped: number;
  /** Error rows written in this session. */
  errors: number;
  /** Rows of this session served from the cache. */
  cached: number;
  /** Whether the sweep was stopped early (abort signal); rows written so far are kept. */
  interrupted: boolean;
  /** Wall time of this session in seconds. */
  elapsedSeconds: number;
  /**
   * Models stopped early: their first `failFast` rows of the session all
   * failed with the same client error (the rest of their rows are not
   * asked; a resume asks them).
   */
  stopped: { model: string; rows: number; message: string }[];
  /** Models whose every stored row is an error row, with the first error. */
  failing: { model: string; rows: number; firstError: string | null }[];
  /**
   * Things the user should know: lines of a resumed run set aside, and
   * one line per suite × sim model where the sim had no skill for any
   * prompt of the suite it was asked this session (every such row holds
   * the sim's non-answer).
   */
  warnings: string[];
}
