/**
 * Benchmark: requests/s of the real `openai` client (through
 * OpenAIProvider) against the sim server at 0 ms latency, at 16 and 64
 * requests in flight. Prints one line per setting; `benchProviders()` is
 * exported for `tests/bench/run.ts`.
 *
 * Run: `deno run -A tests/bench/providers_bench.ts [requests]`
 *
 * @module
 */
import { SIM_BACKEND } from "../_score.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { SimProvider } from "../../lib/providers/sim.ts";
import { startSimServer } from "../../lib/mod.ts";
import type { Prompt } from "../../lib/types.ts";

/** One measured setting. */
export interface ProviderBenchResult {
  name: string;
  inFlight: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  errors: number;
}

/** Options of {@linkcode benchProviders}. */
export interface ProviderBenchOptions {
  /** Requests per setting. @default {4000} */
  requests?: number;
  /** In-flight settings. @default {[16, 64]} */
  inFlight?: number[];
  /** Print a line per setting. @default {true} */
  print?: boolean;
}

function prompt(i: number): Prompt {
  return {
    templateId: "direct",
    messages: [{
      role: "user",
      content: `What is ${1000 + i} * ${
        37 + (i % 50)
      }? Answer with the number only.`,
    }],
    params: { temperature: 0, max_tokens: 64, seed: i },
  };
}

async function drive(
  complete: (prompt: Prompt) => Promise<{ error?: unknown }>,
  requests: number,
  inFlight: number,
): Promise<{ seconds: number; errors: number }> {
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < requests) {
      const completion = await complete(prompt(next++));
      if (completion.error !== undefined) errors++;
    }
  }));
  return { seconds: (performance.now() - started) / 1000, errors };
}

/**
 * Measures requests/s over HTTP (openai client → sim server, one process,
 * loopback, keep-alive) on both server transports (`Deno.serve`, used
 * unless hangs/drops are injected, and `node:http`) and, for scale, the
 * in-process SimProvider.
 *
 * @param options Requests per setting and in-flight settings.
 * @returns One result per setting.
 */
export async function benchProviders(
  options: ProviderBenchOptions = {},
): Promise<ProviderBenchResult[]> {
  const { requests = 4000, inFlight = [16, 64], print = true } = options;
  const results: ProviderBenchResult[] = [];
  const report = (result: ProviderBenchResult) => {
    results.push(result);
    if (print) {
      console.log(
        `${result.name.padEnd(34)} in flight ${
          String(result.inFlight).padStart(3)
        }: ` +
          `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s ` +
          `(${result.requests} requests in ${
            result.seconds.toFixed(2)
          } s, ${result.errors} errors)`,
      );
    }
  };
  for (const transport of ["deno", "node"] as const) {
    const server = await startSimServer({ transport });
    try {
      const http = new OpenAIProvider({
        name: "bench",
        model: "sim-strong",
        baseURL: server.baseURL,
        maxRetries: 0,
      });
      await drive((p) => http.complete(p, { sample: 0 }), 200, 16); // warm-up
      for (const n of inFlight) {
        const { seconds, errors } = await drive(
          (p) => http.complete(p, { sample: 0 }),
          requests,
          n,
        );
        report({
          name: `openai client -> sim server (${transport})`,
          inFlight: n,
          requests,
          seconds,
          requestsPerSecond: requests / seconds,
          errors,
        });
      }
      // the server alone: plain fetch, no openai client, same bodies
      const raw = async (p: Prompt) => {
        const response = await fetch(`${server.baseURL}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            model: "sim-strong",
            messages: p.messages,
            ...p.params,
          }),
        });
        const json = await response.json();
        return response.ok ? {} : { error: json };
      };
      const { seconds, errors } = await drive(raw, requests, 64);
      report({
        name: `plain fetch -> sim server (${transport})`,
        inFlight: 64,
        requests,
        seconds,
        requestsPerSecond: requests / seconds,
        errors,
      });
    } finally {
      await server.close();
    }
  }
  const local = new SimProvider({
    backend: SIM_BACKEND,
    name: "bench",
    model: "sim-strong",
  });
  const { seconds, errors } = await drive(
    (p) => local.complete(p, { sample: 0 }),
    requests,
    64,
  );
  report({
    name: "SimProvider (in process)",
    inFlight: 64,
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    errors,
  });
  if (print) {
    const rate = (name: string, n: number) =>
      results.find((r) => r.inFlight === n && r.name.includes(name))
        ?.requestsPerSecond ?? NaN;
    for (const n of inFlight) {
      console.log(
        `deno/node transport ratio at ${n} in flight: ${
          (rate("openai client -> sim server (deno)", n) /
            rate("openai client -> sim server (node)", n)).toFixed(2)
        }x`,
      );
    }
    console.log(
      `in-process / HTTP deno (64) ratio: ${
        (rate("in process", 64) /
          rate("openai client -> sim server (deno)", 64)).toFixed(1)
      }x`,
    );
  }
  return results;
}

if (import.meta.main) {
  const requests = Number(Deno.args[0] ?? 4000);
  await benchProviders({ requests });
}
