/**
 * The flow types, and only those. Data moves one way:
 *
 * Question → Prompt → Completion → Extraction → Verdict → ResultRow
 *
 * A module takes one of these and returns the next. Nothing here has
 * behaviour; see `lib/suites` for what produces and consumes them.
 *
 * @module
 */

/** A value a category/dimension column can hold in a data frame. */
export type DimValue = string | number | boolean | null;

/**
 * The exact ground truth of a question. Numbers are exact rationals written
 * as strings (`"-7"`, `"22/7"`), computed with BigInt or mathjs fractions,
 * never with floating point.
 */
export type Answer =
  /** An exact rational: `"42"`, `"-3/4"`. */
  | { kind: "rational"; value: string }
  /** A multiple-choice letter, e.g. `"B"`. */
  | { kind: "choice"; value: string }
  /** A matrix (or a vector, as one column) of exact rationals. */
  | { kind: "matrix"; value: string[][] }
  /** An order-free multiset of exact or decimal values (e.g. eigenvalues). */
  | { kind: "multiset"; value: string[] }
  /** Free text compared by the suite's own judge. */
  | { kind: "text"; value: string };

/**
 * A declared dimension of a suite's questions: a key of `Question.dims`
 * with how to show it. Suites declare their dims; the report and the
 * notebooks plot what is declared, under its label.
 */
export interface DimSpec {
  /** The key in `Question.dims` (and the column in a result frame). */
  name: string;
  /** Numeric dims get lines against the value; categorical ones get bars. */
  kind: "numeric" | "categorical";
  /** Human label, e.g. "operand digits". */
  label: string;
  /** Shown in the report by default. @default true */
  show?: boolean;
}

/**
 * One thing to ask a model. Pure data, serialisable to JSON. `P` is the
 * suite's own payload type (each suite declares it).
 */
export interface Question<P = Record<string, unknown>> {
  /** Stable id derived from suite + generator params + seed (or dataset row). */
  id: string;
  /** The suite that made it, e.g. `"arithmetic"`. */
  suite: string;
  /** The question as a person would read it, without instructions. */
  text: string;
  /** The exact answer key. */
  answer: Answer;
  /**
   * Category and dimension fields for analysis (family, digits, carries,
   * size, subject, level, language...). Flat, scalar values only: each key
   * becomes a column in the result frame.
   */
  dims: Record<string, DimValue>;
  /** Structured payload a template or judge needs (operands, matrices...). */
  payload?: P;
}

/** One chat message in the OpenAI wire shape. */
export interface ChatMessage {
  /** Who wrote the message. */
  role: "system" | "user" | "assistant" | "tool";
  /** The message text. */
  content: string;
  /** For `role: "tool"`: the id of the call this answers. */
  tool_call_id?: string;
  /** For `role: "assistant"`: tool calls the model made. */
  tool_calls?: ToolCall[];
}

/** A function tool call, as the OpenAI API returns it. */
export interface ToolCall {
  /** Call id; the tool message that answers it carries it as `tool_call_id`. */
  id: string;
  /** Always `"function"`. */
  type: "function";
  /** The function name and its arguments as a JSON string. */
  function: { name: string; arguments: string };
}

/** A function tool offered to the model (OpenAI `tools` entry). */
export interface ToolSpec {
  /** Always `"function"`. */
  type: "function";
  /** Function name, description and JSON Schema of its parameters. */
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
  };
}

/** Generation parameters sent with a request. */
export interface GenerationParams {
  /** Sampling temperature (0 = greedy). */
  temperature: number;
  /** Cap on completion tokens; longer replies end with finish reason `"length"`. */
  max_tokens: number;
  /** Sent as the request's `seed`; the runner derives it from the sweep seed and the sample index. */
  seed?: number;
  /** Extra request body fields (e.g. `top_p`, `reasoning_effort`). */
  extra?: Record<string, unknown>;
}

/** What is sent to a model: the rendered template plus parameters. */
export interface Prompt {
  /** The template that rendered it, e.g. `"direct"`, `"cot"`. */
  templateId: string;
  /** The chat messages, system first. */
  messages: ChatMessage[];
  /** Generation parameters sent with the request. */
  params: GenerationParams;
  /** Tools offered to the model, if the template has any. */
  tools?: ToolSpec[];
}

/** Why a request failed for good (after retries). */
export type ErrorKind =
  | "rate_limit"
  | "server"
  | "timeout"
  | "connection"
  | "bad_response"
  | "client"
  | "auth"
  | "aborted"
  | "unknown";

/** Finish reasons as the OpenAI API reports them, plus `"error"`. */
export type FinishReason =
  | "stop"
  | "length"
  | "tool_calls"
  | "content_filter"
  | "error"
  | string;

/** What came back from a model, or why nothing did. */
export interface Completion {
  /** The answer text, with any reasoning (`<think>` or `reasoning_content`) removed. */
  text: string;
  /** Reasoning text kept apart from the answer, if the model produced any. */
  reasoning: string | null;
  /** Why generation stopped (`"stop"`, `"length"`, ... or `"error"`). */
  finishReason: FinishReason;
  /** Token counts as the API reported them (estimated for the sim). */
  usage: { promptTokens: number; completionTokens: number };
  /** Wall time of the whole call including retries, in milliseconds. */
  latencyMs: number;
  /** Attempts made (1 = no retry; in-process sim: 1). 0 when served from the cache. */
  attempts: number;
  /** Tool calls the model asked for on its final turn, if any. */
  toolCalls?: ToolCall[];
  /** Whether this came from the response cache. */
  cached?: boolean;
  /**
   * The tool turns before the final answer (assistant tool calls and tool
   * results), when the template offered tools and the model used them.
   */
  transcript?: ChatMessage[];
  /** Set when the call failed for good; `text` is then empty. */
  error?: { kind: ErrorKind; message: string; status?: number };
}

/** What an extractor found in a completion. Extractors never throw. */
export interface Extraction {
  /** The parsed answer in the suite's normal form (a rational string, a letter...), or null. */
  value: string | null;
  /** The extraction rule that fired (e.g. `"answer_marker"`, `"boxed"`, `"last_number"`). */
  rule: string;
  /** Character span of the answer in the completion text. */
  span: [number, number] | null;
  /** How many distinct candidate answers the text held. */
  candidates: number;
  /**
   * The values it could not choose between, when `rule` is `"ambiguous"`
   * (a hedge, or final answers that disagree): no value, these instead.
   */
  alternatives?: string[];
  /**
   * Numbers the rules set aside as not the answer, each with why
   * (`"48213: restates the question"`, `"17: in a check after the answer"`).
   */
  setAside?: string[];
}

/** Outcome statuses. */
export type VerdictStatus =
  | "correct"
  | "wrong"
  | "parse_error"
  | "error"
  | "truncated"
  /** No key to judge against (e.g. C-Eval's withheld test split): excluded from accuracy. */
  | "unscored";

/** The judge's decision on one completion. */
export interface Verdict {
  /** The outcome: correct, wrong, parse error, request error, truncated or unscored. */
  status: VerdictStatus;
  /** 1 for correct, 0 otherwise (partial credit allowed by some suites). */
  score: number;
  /** The reply is in the instructed format (e.g. just the number). */
  formatValid: boolean;
  /** Error class from the suite's taxonomy, for wrong answers. */
  errorClass?: string;
  /** Relative error for numeric answers, when defined. */
  relError?: number;
  /** Why: what the judge saw (kept in the row). */
  explanation?: string;
  /**
   * The suite's own per-row measures and labels (e.g. a forensic stage, a
   * measured complexity class, tests passed). Flat scalars: each key
   * becomes a column of the result frame, as dims do.
   */
  metrics?: Record<string, DimValue>;
}

/**
 * A question with the completion that answered it: what a suite's
 * `extract` reads.
 */
export interface Reply<P = Record<string, unknown>> {
  /** The question asked. */
  question: Question<P>;
  /** The model's completion. */
  completion: Completion;
}

/**
 * A reply with what `extract` read from it: what a suite's `score` judges.
 * `E` is the suite's own extraction type.
 */
export interface Judged<P = Record<string, unknown>, E = Extraction>
  extends Reply<P> {
  /** What `extract` returned (or a copy with the extraction judge's value). */
  extraction: E;
}

/**
 * One finished (model, question, template, sample), flattened for a data
 * frame. One JSON line in `outputs/<run>/results.jsonl`.
 */
export interface ResultRow {
  /** `model|question_id|template|sample`: unique within a run. */
  key: string;
  /** Run id: the run folder's name. */
  run: string;
  /** The model name as configured. */
  model: string;
  /** The suite's registry name. */
  suite: string;
  /** The question's id, unique within its suite. */
  question_id: string;
  /** The template id that rendered the prompt. */
  template: string;
  /** Sample index (0-based) when a question is asked several times. */
  sample: number;
  /** Category/dimension fields copied from the question. */
  dims: Record<string, DimValue>;
  /** The question text. */
  question: string;
  /**
   * The chat messages of the row's first request exactly as sent (system
   * and user, as the template rendered them), as JSON; null in rows
   * written before runs kept it.
   */
  prompt: string | null;
  /** The answer key, as text. */
  expected: string;
  /** The verdict's status. */
  status: VerdictStatus;
  /** Whether `status` is `"correct"`. */
  correct: boolean;
  /** The verdict's score: 1 correct, 0 wrong, or partial credit. */
  score: number;
  /** Whether the reply was in the instructed format. */
  format_valid: boolean;
  /** Error class from the suite's taxonomy, for wrong answers. */
  error_class: string | null;
  /** Relative error for numeric answers, when defined. */
  rel_error: number | null;
  /** The extracted answer in the suite's normal form, or null. */
  extracted: string | null;
  /** The extraction rule that fired, or null when nothing was extracted. */
  extract_rule: string | null;
  /** The model's answer text (reasoning removed). */
  response: string;
  /** Reasoning text kept apart from the answer, if any. */
  reasoning: string | null;
  /** The completion's finish reason. */
  finish_reason: string;
  /** Prompt tokens used. */
  prompt_tokens: number;
  /** Completion tokens used. */
  completion_tokens: number;
  /** Wall time of the call including retries, in milliseconds. */
  latency_ms: number;
  /** Attempts made (1 = no retry; 0 when served from the cache). */
  attempts: number;
  /** Whether the completion came from the response cache. */
  cached: boolean;
  /** Why the request failed for good, or null. */
  error_kind: ErrorKind | null;
  /** The failure's message, or null. */
  error_message: string | null;
  /** The judge's explanation, if it gave one. */
  explanation: string | null;
  /** The suite's per-row measures and labels (see `Verdict.metrics`). */
  metrics: Record<string, DimValue>;
  /** Tool turns before the final answer, as JSON chat messages, or null. */
  transcript: string | null;
  /** ISO time the row was written. */
  finished_at: string;
}

/**
 * The fields of a {@linkcode ResultRow}, in its order: the one list the
 * store's CSV copy and the report's row schema take their columns from.
 * The compiler checks that it names exactly the keys of `ResultRow`.
 */
export const RESULT_COLUMNS = [
  "key",
  "run",
  "model",
  "suite",
  "question_id",
  "template",
  "sample",
  "dims",
  "question",
  "prompt",
  "expected",
  "status",
  "correct",
  "score",
  "format_valid",
  "error_class",
  "rel_error",
  "extracted",
  "extract_rule",
  "response",
  "reasoning",
  "finish_reason",
  "prompt_tokens",
  "completion_tokens",
  "latency_ms",
  "attempts",
  "cached",
  "error_kind",
  "error_message",
  "explanation",
  "metrics",
  "transcript",
  "finished_at",
] as const;

/** A field name of {@linkcode ResultRow}: one of {@linkcode RESULT_COLUMNS}. */
export type ResultColumn = (typeof RESULT_COLUMNS)[number];

// Fails to compile when RESULT_COLUMNS misses a ResultRow key or names one
// ResultRow lacks.
const _sameKeys: [ResultColumn, keyof ResultRow] extends
  [keyof ResultRow, ResultColumn] ? true : false = true;
