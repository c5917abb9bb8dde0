/** Stand-in suite and provider for runner tests (the real ones are tested elsewhere). */
import { z } from "zod";
import { defineSuite } from "../../lib/suites/define.ts";
import type { Suite } from "../../lib/suites/types.ts";
import type { Completion, Prompt } from "../../lib/types.ts";
import type { Provider } from "../../lib/providers/types.ts";
import type { ProviderFactory } from "../../lib/runner/mod.ts";
import {
  type SweepConfig,
  SweepConfigSchema,
} from "../../lib/config/schema.ts";

/** A suite of `n` additions "a+b" answered by the text itself. */
export function addSuite(n: number, options: { tools?: boolean } = {}): Suite {
  return defineSuite({
    name: "add",
    description: "a + b",
    // Any params: the runner tests pass their own.
    params: z.record(z.string(), z.unknown()),
    questions: () =>
      Array.from({ length: n }, (_, i) => ({
        id: `add-${i}`,
        suite: "add",
        text: `${i}+${i + 1}`,
        answer: { kind: "rational" as const, value: String(2 * i + 1) },
        dims: { i },
      })),
    templates: {
      direct: {
        id: "direct",
        description: "just the question",
        render: (q) => [{ role: "user", content: q.text }],
        ...(options.tools
          ? {
            tools: [{
              type: "function" as const,
              function: {
                name: "calc",
                description: "adds",
                parameters: { type: "object" },
              },
            }],
          }
          : {}),
      },
      cot: {
        id: "cot",
        description: "think first",
        render: (q) => [{ role: "user", content: `Think. ${q.text}` }],
      },
    },
    defaultTemplates: ["direct"],
    baseline: "direct",
    dims: [],
    extract: ({ completion: c }) => ({
      value: /-?\d+$/.exec(c.text)?.[0] ?? null,
      rule: "last_number",
      span: null,
      candidates: 1,
    }),
    score: ({ question: q, extraction: e }) => {
      const ok = q.answer.kind === "rational" && e.value === q.answer.value;
      return {
        status: ok ? "correct" : "wrong",
        score: ok ? 1 : 0,
        formatValid: true,
      };
    },
    ...(options.tools
      ? {
        executeTool: (_name: string, args: string) => {
          const { a, b } = JSON.parse(args) as { a: number; b: number };
          return String(a + b);
        },
      }
      : {}),
  });
}

/** Adds the two numbers of the last user message. */
export function answer(prompt: Prompt): string {
  const text = prompt.messages.findLast((m) => m.role === "user")?.content ??
    "";
  const [, a, b] = /(\d+)\+(\d+)/.exec(text) ?? [];
  return String(Number(a) + Number(b));
}

export function ok(text: string): Completion {
  return {
    text,
    reasoning: null,
    finishReason: "stop",
    usage: { promptTokens: 3, completionTokens: 1 },
    latencyMs: 1,
    attempts: 1,
  };
}

/** Counts calls and in-flight calls per model. */
export interface CallLog {
  calls: number;
  inFlight: Map<string, number>;
  maxInFlight: Map<string, number>;
  maxGlobal: number;
}

export type Behaviour = (
  model: string,
  prompt: Prompt,
  sample: number,
  signal: AbortSignal | undefined,
) => Promise<Completion>;

/** A provider factory whose models run `behaviour`, logging calls. */
export function stubProviders(behaviour: Behaviour): {
  factory: ProviderFactory;
  log: CallLog;
} {
  const log: CallLog = {
    calls: 0,
    inFlight: new Map(),
    maxInFlight: new Map(),
    maxGlobal: 0,
  };
  let global = 0;
  const factory: ProviderFactory = (model) => {
    const provider: Provider = {
      name: model.name,
      async complete(prompt, { sample, signal }) {
        log.calls++;
        global++;
        log.maxGlobal = Math.max(log.maxGlobal, global);
        const now = (log.inFlight.get(model.name) ?? 0) + 1;
        log.inFlight.set(model.name, now);
        log.maxInFlight.set(
          model.name,
          Math.max(log.maxInFlight.get(model.name) ?? 0, now),
        );
        try {
          return await behaviour(model.name, prompt, sample, signal);
        } finally {
          global--;
          log.inFlight.set(model.name, (log.inFlight.get(model.name) ?? 1) - 1);
        }
      },
    };
    return provider;
  };
  return { factory, log };
}

/** Resolves after `ms`, or with an aborted completion when `signal` aborts. */
export function delayed(
  ms: number,
  value: Completion,
  signal?: AbortSignal,
): Promise<Completion> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve({
        ...value,
        text: "",
        error: { kind: "aborted", message: "aborted" },
      });
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A validated config for the stand-in suite. */
export function testConfig(
  outputDir: string,
  extra: Record<string, unknown> = {},
): SweepConfig {
  return SweepConfigSchema.parse({
    models: [{ name: "m1", provider: "sim" }, { name: "m2", provider: "sim" }],
    suites: [{ name: "add" }],
    outputDir,
    ...extra,
  });
}

/** All rows of a run folder. */
export async function readRows(
  runDir: string,
): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${runDir}/results.jsonl`);
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}
