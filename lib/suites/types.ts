/**
 * The suite contract: what one suite folder provides. A suite owns its
 * params, question sources, templates, extraction choice, scoring (which
 * may await: a sandbox, a judge model), forensics, declared dims and
 * baseline template, headline metrics (`metrics`: what the overview, the
 * sweep's closing table, `summary.csv` and the notebooks show for it, over
 * the rows `isScored` keeps), report sections, sim skills and extra CLIs. Generic
 * layers see only the parts they need (the runner: questions, templates,
 * extract, score; the report: {@linkcode SuiteView}; the sim: skills) and
 * never import a suite; the registry (`registry.ts`) is the one list of suites.
 *
 * @module
 */
import type { ModelConfig } from "../config/schema.ts";
import type { InputLog } from "../inputs/log.ts";
import type { Template, ToolExecutor } from "../prompting/template.ts";
import type { RegisteredSkill } from "../providers/sim/mod.ts";
import type { SuiteView } from "../report/suite_view.ts";
import type { SampleDetail, SampleRow } from "../report/viewer/mod.ts";
import type {
  Completion,
  Extraction,
  Prompt,
  Question,
  Verdict,
} from "../types.ts";

export type { Template, ToolExecutor };

/** Options every suite's question source receives. */
export interface QuestionSourceOptions {
  /** Sweep seed, for generators. */
  seed: number;
  /** Generator params or dataset settings from the config (validated by `validateParams`). */
  params: Record<string, unknown>;
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

/** What a suite's scorer may use besides the row itself. */
export interface ScoreContext {
  /** The suite's params from the config (validated). */
  params: Record<string, unknown>;
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
 * A suite: dataset + templates + extractor + scorer, with what the report
 * and the sim need to know about it. `P` is the suite's payload type.
 * Methods are written as methods so a `Suite<MyPayload>` is a `Suite`.
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
  /** The questions for these params and seed. Deterministic. */
  questions(options: QuestionSourceOptions): Promise<Question<P>[]>;
  /** The suite's prompt templates by id. */
  templates: Readonly<Record<string, Template>>;
  /** Template ids run when a config names none. */
  defaultTemplates: readonly string[];
  /** Executes tool calls for templates that offer tools. */
  executeTool?: ToolExecutor;
  /** Extracts the answer from a completion (never throws). */
  extract(question: Question<P>, completion: Completion): Extraction;
  /**
   * Scores an extraction against the key (never throws; may await).
   * Returns the verdict with the suite's own metrics and forensic labels.
   */
  score(
    question: Question<P>,
    completion: Completion,
    extraction: Extraction,
    context: ScoreContext,
  ): Verdict | Promise<Verdict>;
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
   * What judging this suite's rows runs on for these params (e.g. the code
   * sandbox's backends and versions), recorded in the manifest for each
   * session. Throws, and the sweep refuses to start, when the params ask
   * for something this machine lacks (the message says what to install).
   */
  judging?(params: Record<string, unknown>): Promise<Record<string, string>>;
  /**
   * What the report's sample viewer shows of one of this suite's rows
   * beyond the generic fields (a program's tests, a matrix, the options).
   */
  detail?(row: SampleRow): SampleDetail | Promise<SampleDetail>;
  /**
   * Releases what the suite opened for scoring (a sandbox pool). The
   * runner calls it when a sweep that used the suite ends.
   */
  close?(): Promise<void>;
}

/** The suites a sweep, config check or report can use, in registry order. */
export type SuiteList = readonly Suite[];
