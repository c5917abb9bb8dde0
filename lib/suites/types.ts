/**
 * The suite contract as generic code sees it. A suite is written with
 * `defineSuite` (`define.ts`), which types its params, payload,
 * extraction and per-run state; what comes out is a {@linkcode Suite}
 * (what the config check, report and sim read) whose `open` makes a
 * {@linkcode SuiteRun} (what the runner drives for one sweep). Generic
 * layers see only the parts they need (the runner: a run and templates;
 * the report: {@linkcode SuiteView}; the sim: skills) and never import a
 * suite; the registry (`registry.ts`) is the one list of suites.
 *
 * @module
 */
import type { AdaptivePlace } from "../adaptive/pools.ts";
import type { ModelConfig } from "../config/schema.ts";
import type { InputLog } from "../inputs/log.ts";
import type { Template, ToolExecutor } from "../prompting/template.ts";
import type { RegisteredSkill } from "../providers/sim/mod.ts";
import type { SuiteView } from "../report/suite_view.ts";
import type { SampleDetail, SampleRow } from "../report/viewer/mod.ts";
import type {
  Completion,
  Extraction,
  Judged,
  Prompt,
  Question,
  Verdict,
} from "../types.ts";

export type { Template, ToolExecutor };

/** What opens one run of a suite: its params and where its files are. */
export interface QuestionSourceOptions {
  /** Sweep seed, for generators. */
  seed: number;
  /** The suite's params from the config (parsed once, by the run). */
  params: unknown;
  /** Folder relative paths in params resolve against (the config file's folder). */
  baseDir: string;
  /**
   * Reads input files strictly and records each by content for the run's
   * identity: a suite reads its datasets through it. @default a fresh log
   * (a notebook calling `questions` directly)
   */
  inputs?: InputLog;
}

/** The outcome of checking a suite's params: every issue with its path. */
export type ParamsCheck = { ok: true } | {
  ok: false;
  issues: { path: (string | number)[]; message: string }[];
};

/** What the runner gives a run's scorer besides the row itself. */
export interface ScoreContext {
  /**
   * Sends a prompt to a model that is not under test (a judge model named
   * in the suite's params). The runner makes one provider per model and
   * reuses it; API keys come from the same environment as the sweep's.
   */
  complete(model: ModelConfig, prompt: Prompt): Promise<Completion>;
  /** Aborted when the sweep stops. */
  signal: AbortSignal;
  /**
   * A store for what scoring derived from a reply (a judged program),
   * kept in the response-cache folder, so a later run judges an identical
   * program once; absent when the sweep runs without its cache
   * (`--no-cache`, `"cache": false`). Values are JSON data.
   */
  cache?: ScoreCache;
}

/** See {@linkcode ScoreContext.cache}. */
export interface ScoreCache {
  /** The value stored under `key`, or undefined. */
  getScore(key: string): unknown;
  /** Stores `value` (JSON data) under `key`. */
  putScore(key: string, value: unknown): void;
}

/**
 * A suite as generic code holds it (made by `defineSuite`, which keeps
 * the params', extraction's and state's types inside): what the config
 * check, the report, the sim and the runner read, and `open`, which makes
 * one run. `P` is the suite's payload type. Methods are written as
 * methods so a `Suite<MyPayload>` is a `Suite`.
 */
export interface Suite<P = Record<string, unknown>> extends SuiteView {
  /** The suite's registry name, used in configs and rows, e.g. `"arithmetic"`. */
  name: string;
  /** One line on what the suite measures. */
  description: string;
  /**
   * The version of the suite's question generators and loaders: raise it
   * whenever the same params, seed and files would give other questions.
   * Recorded in every run's identity, so a resume across the change is
   * refused instead of mixing questions. @default "0"
   */
  version?: string;
  /** Validates `params` from the config; errors are reported with their path. */
  validateParams(params: unknown): ParamsCheck;
  /** The suite's prompt templates by id. */
  templates: Readonly<Record<string, Template>>;
  /** Template ids run when a config names none. */
  defaultTemplates: readonly string[];
  /** Executes tool calls for templates that offer tools. */
  executeTool?: ToolExecutor;
  /**
   * Typical completion tokens of one reply to a template, for sweep plans
   * made before any run of the model; `undefined` (or no method) leaves it
   * to the plan's generic rule, which reads the template's description.
   */
  outputTokens?(templateId: string, maxTokens: number): number | undefined;
  /**
   * Sim skills that answer this suite's prompts. The sim tries the skills
   * of all registered suites in registry order.
   */
  simSkills?: readonly RegisteredSkill[];
  /**
   * What the report's sample viewer shows of one of this suite's rows
   * beyond the generic fields (a program's tests, a matrix, the options).
   */
  detail?(row: SampleRow): SampleDetail | Promise<SampleDetail>;
  /**
   * The ordered sizes an adaptive sweep may move along (a suite entry's
   * `adaptive.dim`), by dim name: where each question sits (its group
   * and size), or null for a question outside every group.
   */
  adaptive?: Readonly<
    Record<string, (question: Question) => AdaptivePlace | null>
  >;
  /**
   * Opens one run: parses the params once and makes what the suite keeps
   * across rows (a sandbox pool, a loaded bank). Close it when done.
   * @throws {TypeError} for params the suite refuses.
   */
  open(options: QuestionSourceOptions): Promise<SuiteRun<P>>;
  /**
   * The questions for these params and seed (opens a run, asks, closes
   * it): for a notebook that wants the questions alone. Deterministic.
   */
  questions(options: QuestionSourceOptions): Promise<Question<P>[]>;
  /**
   * Extracts the answer from a completion with `options.params` (default
   * the suite's defaults) in a run of its own (opened, used, closed): for
   * a notebook re-reading replies.
   * @throws {TypeError} for params the suite refuses (a suite with a
   *   required param needs them given); otherwise never rejects.
   */
  extract(
    question: Question<P>,
    completion: Completion,
    options?: { params?: unknown; baseDir?: string },
  ): Promise<Extraction>;
}

/**
 * One run of a suite: its params parsed, its state open, its hooks bound
 * to both. The runner opens one per suite entry of a sweep and closes it
 * when the sweep ends, so two sweeps in one process share nothing.
 */
export interface SuiteRun<P = Record<string, unknown>> {
  /** The suite this run is of. */
  readonly suite: Suite<P>;
  /** The params as the suite's schema parsed them (defaults filled in). */
  readonly params: unknown;
  /** The run's questions. Deterministic. */
  questions(): Promise<Question<P>[]>;
  /** Extracts the answer from a completion (never rejects). */
  extract(question: Question<P>, completion: Completion): Promise<Extraction>;
  /**
   * Scores what `extract` returned (the same object, or a copy with the
   * extraction judge's value) against the key. Never throws; may await.
   */
  score(judged: Judged<P>, context: ScoreContext): Promise<Verdict>;
  /**
   * What judging runs on (e.g. the code sandbox's backends), recorded in
   * the manifest; undefined when the suite says nothing.
   * @throws when the params ask for something this machine lacks (the
   * message says what to install); the sweep then refuses to start.
   */
  judging(): Promise<Record<string, string> | undefined>;
  /**
   * Releases what the run opened so far. Safe to call twice; a run used
   * after it (to score more rows) opens what it needs again, and is to be
   * closed again.
   */
  close(): Promise<void>;
}

/** The suites a sweep, config check or report can use, in registry order. */
export type SuiteList = readonly Suite[];
