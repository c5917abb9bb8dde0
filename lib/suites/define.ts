/**
 * `defineSuite`: a suite in one typed object. The params schema is parsed
 * once per run and the parsed, typed params reach every hook; what
 * `extract` returns is what `score` receives, with its own type; what the
 * suite keeps across rows (a sandbox pool, a loaded bank) is the run's
 * `state`, made by `open` and released by `close`, so two sweeps in one
 * process share nothing. What comes out is a {@linkcode Suite}, the shape
 * generic code reads.
 *
 * @module
 */
import { z } from "zod";
import type { AdaptivePlace } from "../adaptive/pools.ts";
import type { Metric } from "../judge/metric.ts";
import { InputLog } from "../inputs/log.ts";
import type { RegisteredSkill } from "../providers/sim/mod.ts";
import type { DataFrame } from "../report/frame.ts";
import type { ReportSection } from "../report/suite_view.ts";
import type { SampleDetail, SampleRow } from "../report/viewer/mod.ts";
import type {
  DimSpec,
  Extraction,
  Judged,
  Question,
  Reply,
  Verdict,
} from "../types.ts";
import { type ParamsSchema, zodParams } from "./params.ts";
import { instructionTemplate } from "../prompting/template.ts";
import type {
  QuestionSourceOptions,
  ScoreContext,
  Suite,
  SuiteRun,
  Template,
  ToolExecutor,
} from "./types.ts";

/** What `open` receives: the run's parsed params and where its files are. */
export interface RunInfo<Params> {
  /** The params, parsed by the suite's schema (defaults filled in). */
  params: Params;
  /** The sweep's seed, for generators. */
  seed: number;
  /** The folder relative paths in params resolve against. */
  baseDir: string;
  /** Reads the run's input files strictly and records them by content. */
  inputs: InputLog;
}

/** What `questions`, `score` and `judging` receive: the run and its state. */
export interface RunOf<Params, State> extends RunInfo<Params> {
  /** What `open` made for this run (undefined without `open`). */
  state: State;
}

/** A suite, written once with its types (see {@linkcode defineSuite}). */
export interface SuiteDefinition<
  Params,
  Payload,
  Read extends Extraction,
  State,
> {
  /** The name configs and rows use, e.g. `"units"`. */
  name: string;
  /** One line on what the suite measures. */
  description: string;
  /**
   * Raise it whenever the same params, seed and files give other
   * questions (a resume across the change is refused). @default "0"
   */
  version?: string;
  /** The params' schema (a zod schema). @default no params (an empty strict object) */
  params?: ParamsSchema<Params>;
  /** Makes what the run keeps across rows. @default no state */
  open?(run: RunInfo<Params>): State | Promise<State>;
  /** Releases the state at the run's end (also after a failure). */
  close?(state: State): void | Promise<void>;
  /** The run's questions. Deterministic in the params and seed. */
  questions(
    run: RunOf<Params, State>,
  ): Question<Payload>[] | Promise<Question<Payload>[]>;
  /**
   * The prompt templates, as a list (ids from each) or by id; a string is
   * an instruction put on its own line after the question
   * (`instructionTemplate`).
   */
  templates: readonly Template[] | Readonly<Record<string, Template | string>>;
  /** Ids run when a config names none. @default the first template */
  defaultTemplates?: readonly string[];
  /** The template others are compared against. @default the first default */
  baseline?: string;
  /** The dims the questions carry, for breakdowns. @default none */
  dims?: readonly DimSpec[];
  /**
   * Reads the answer from a reply, with the run's params and state (never
   * throws; may await, e.g. a parser the run keeps open).
   */
  extract(
    reply: Reply<Payload>,
    run: RunOf<Params, State>,
  ): Read | Promise<Read>;
  /**
   * Judges what `extract` returned (or a copy with the extraction judge's
   * value and rule `"judge"`) against the key. For numbers, use
   * `judgeAnswer` (exact rationals, tolerances, forensics).
   */
  score(
    judged: Judged<Payload, Read>,
    run: RunOf<Params, State> & ScoreContext,
  ): Verdict | Promise<Verdict>;
  /** The headline metrics over scored rows. @default accuracy, format-valid rate */
  metrics?: readonly Metric[];
  /** The suite's own report sections over its rows. */
  sections?(frame: DataFrame): Promise<ReportSection[]>;
  /** What the sample viewer shows of a row beyond the generic fields. */
  detail?(row: SampleRow): SampleDetail | Promise<SampleDetail>;
  /** The sim's skill(s) for this suite's prompts (`defineSkill`). */
  sim?: RegisteredSkill | readonly RegisteredSkill[];
  /** Executes tool calls of templates that offer tools. */
  executeTool?: ToolExecutor;
  /** Typical completion tokens of a reply to a template, for plans. */
  outputTokens?(templateId: string, maxTokens: number): number | undefined;
  /**
   * The ordered sizes an adaptive sweep may move along, by dim name
   * (`"adaptive": { "dim": "digits" }` in a suite entry): where a
   * question sits, its group (one design each) and its size, or null for
   * a question no design asks. The sizes' questions are the run's own,
   * so `count` per size caps each design. @default none
   */
  adaptive?: Readonly<
    Record<string, (question: Question<Payload>) => AdaptivePlace | null>
  >;
  /**
   * What judging runs on for this run (recorded in the manifest); throws
   * when the machine lacks it, and the sweep refuses to start.
   */
  judging?(run: RunOf<Params, State>): Promise<Record<string, string>>;
}

/**
 * Makes a suite from its definition: the params' schema validates configs
 * and is parsed once per run; `open` makes the run's state and `close`
 * releases it; the extraction's type flows from `extract` to `score`.
 *
 * @param def The suite (see {@linkcode SuiteDefinition}).
 * @returns The suite, ready for a sweep's `suites` or the registry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineSuite } from "./define.ts";
 *
 * const echo = defineSuite({
 *   name: "echo",
 *   description: "Says the word back.",
 *   params: z.strictObject({ word: z.string().default("hi") }),
 *   questions: ({ params }) => [{ id: `echo/${params.word}`, suite: "echo", text: `Say ${params.word}.`, answer: { kind: "text", value: params.word }, dims: {} }],
 *   templates: { direct: "Answer with the word only." },
 *   extract: ({ completion: c }) => ({ value: c.text.trim(), rule: "whole", span: null, candidates: 1, loud: c.text === c.text.toUpperCase() }),
 *   score: ({ question: q, extraction: e }) => ({ status: e.value === q.answer.value ? "correct" : "wrong", score: e.value === q.answer.value ? 1 : 0, formatValid: !e.loud }),
 * });
 * const run = await echo.open({ seed: 1, params: { word: "yo" }, baseDir: "." });
 * const [q] = await run.questions();
 * assert.equal(q!.text, "Say yo.");
 * assert.deepEqual(echo.defaultTemplates, ["direct"]);
 * assert.match(echo.templates.direct!.render(q!)[0]!.content, /^Say yo\.\nAnswer with the word only\.$/);
 * assert.equal(echo.validateParams({ word: 3 }).ok, false);
 * await run.close();
 * ```
 */
export function defineSuite<
  Params = Record<string, never>,
  Payload = Record<string, unknown>,
  Read extends Extraction = Extraction,
  State = undefined,
>(def: SuiteDefinition<Params, Payload, Read, State>): Suite<Payload> {
  const schema = (def.params ?? z.strictObject({})) as ParamsSchema<Params>;
  const params = zodParams(def.name, schema);
  const templates = templatesById(def.templates);
  const defaults = def.defaultTemplates ?? Object.keys(templates).slice(0, 1);
  const skills = def.sim === undefined
    ? undefined
    : Array.isArray(def.sim)
    ? def.sim as readonly RegisteredSkill[]
    : [def.sim as RegisteredSkill];

  async function open(
    options: QuestionSourceOptions,
  ): Promise<SuiteRun<Payload>> {
    const info: RunInfo<Params> = {
      params: params.parse(options.params),
      seed: options.seed,
      baseDir: options.baseDir,
      inputs: options.inputs ?? new InputLog({ baseDir: options.baseDir }),
    };
    const run: RunOf<Params, State> = {
      ...info,
      state:
        (def.open === undefined ? undefined : await def.open(info)) as State,
    };
    return {
      suite,
      params: run.params,
      questions: async () => await def.questions(run),
      extract: async (question, completion) =>
        await def.extract({ question, completion }, run),
      score: async (judged, context) =>
        await def.score(judged as Judged<Payload, Read>, {
          ...run,
          ...context,
        }),
      judging: async () =>
        def.judging === undefined ? undefined : await def.judging(run),
      close: async () => {
        if (def.close !== undefined) await def.close(run.state);
      },
    };
  }

  const suite: Suite<Payload> = {
    name: def.name,
    description: def.description,
    ...(def.version === undefined ? {} : { version: def.version }),
    validateParams: params.validate,
    templates,
    defaultTemplates: defaults,
    baseline: def.baseline ?? defaults[0] ?? "",
    dims: def.dims ?? [],
    ...(def.metrics === undefined ? {} : { metrics: def.metrics }),
    ...(def.sections === undefined ? {} : { sections: def.sections }),
    ...(def.detail === undefined ? {} : { detail: def.detail }),
    ...(skills === undefined ? {} : { simSkills: skills }),
    ...(def.executeTool === undefined ? {} : { executeTool: def.executeTool }),
    ...(def.outputTokens === undefined
      ? {}
      : { outputTokens: def.outputTokens }),
    // A placer reads the question's dims; generic code holds it over any
    // payload.
    ...(def.adaptive === undefined ? {} : {
      adaptive: def.adaptive as Readonly<
        Record<string, (question: Question) => AdaptivePlace | null>
      >,
    }),
    open,
    async questions(options) {
      const run = await open(options);
      try {
        return await run.questions();
      } finally {
        await run.close();
      }
    },
    async extract(question, completion, options = {}) {
      const run = await open({
        seed: 0,
        params: options.params,
        baseDir: options.baseDir ?? ".",
      });
      try {
        return await run.extract(question, completion);
      } finally {
        await run.close();
      }
    },
  };
  return suite;
}

/**
 * Templates by id, from a list (each its own id) or a record (a string is
 * an instruction).
 */
function templatesById(
  templates: readonly Template[] | Readonly<Record<string, Template | string>>,
): Readonly<Record<string, Template>> {
  if (Array.isArray(templates)) {
    return Object.fromEntries(
      (templates as readonly Template[]).map((t) => [t.id, t]),
    );
  }
  return Object.fromEntries(
    Object.entries(templates as Readonly<Record<string, Template | string>>)
      .map(([id, t]) => [
        id,
        typeof t === "string"
          ? instructionTemplate({ id, description: t, instruction: t })
          : t,
      ]),
  );
}
