/**
 * What a suite is: questions + templates + scoring. Each suite module
 * (arithmetic, linalg, ceval, code) exports one `Suite`.
 *
 * @module
 */
import type {
  ChatMessage,
  Completion,
  Extraction,
  Question,
  ToolSpec,
  Verdict,
} from "../types.ts";

/** A prompt template: turns a question into chat messages. */
export interface Template {
  id: string;
  description: string;
  render(question: Question): ChatMessage[];
  /** Tools offered with this template (e.g. the calculator control group). */
  tools?: ToolSpec[];
}

/** Executes a tool call the model made; returns the tool message content. */
export type ToolExecutor = (name: string, args: string) => string;

/** Options every suite's question source receives. */
export interface QuestionSourceOptions {
  /** Sweep seed, for generators. */
  seed: number;
  /** Generator params or dataset settings from the config (validated by `paramsSchema`). */
  params: Record<string, unknown>;
  /** Folder relative paths in params resolve against (the config file's folder). */
  baseDir: string;
}

/** A suite: dataset + templates + extractor + judge. */
export interface Suite {
  name: string;
  description: string;
  /** Validates `params` from the config; errors are reported with their path. */
  validateParams(params: unknown): { ok: true } | {
    ok: false;
    issues: { path: (string | number)[]; message: string }[];
  };
  /** The questions for these params and seed. Deterministic. */
  questions(options: QuestionSourceOptions): Promise<Question[]>;
  templates: Record<string, Template>;
  defaultTemplates: string[];
  /** Executes tool calls for templates that offer tools. */
  executeTool?: ToolExecutor;
  /** Extracts the answer from a completion (never throws). */
  extract(question: Question, completion: Completion): Extraction;
  /** Judges an extraction against the key (never throws). */
  judge(
    question: Question,
    completion: Completion,
    extraction: Extraction,
  ): Verdict;
}
