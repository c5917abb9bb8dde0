/**
 * `deno task serve-sim`: runs the simulated model as an OpenAI-compatible
 * HTTP server with optional fault injection. Only parses flags and calls
 * {@linkcode startSimServer}.
 *
 * @module
 */
import {
  createSimBackend,
  type SimServerOptions,
  startSimServer,
} from "../providers/mod.ts";
import { SIM_SKILLS } from "../suites/mod.ts";
import { SIM_PROFILES } from "../providers/sim/mod.ts";
import { parseCli, runCli, usageError } from "../args.ts";
import { osError } from "../os_error.ts";

/** Usage text printed for `--help` and after a bad flag. */
export const SERVE_SIM_USAGE = `Usage: deno task serve-sim [flags]

Runs the simulated model as an OpenAI-compatible server
(POST /v1/chat/completions, GET /v1/models).

  --port N            port to listen on (default 8000; 0 = any free port)
  --host ADDR         address to bind (default 127.0.0.1; only this flag can
                      bind a non-loopback address)
  --seed N            seed of the fault draws (default 0)
  --latency MS        fixed extra latency per answer (default 0)
  --sim-latency       also sleep the sim's own simulated latency
  --rate-429 P        share of requests answered 429 with Retry-After (0..1)
  --retry-after S     Retry-After seconds sent with a 429 (default 1)
  --rate-500 P        share answered 500
  --rate-503 P        share answered 503
  --rate-hang P       share never answered
  --rate-drop P       share whose connection is closed without a response
  --rate-malformed P  share answered 200 with truncated JSON
  --api-key-env NAME  require "Authorization: Bearer <key>", the key read
                      from the environment variable NAME
  --help              print this text`;

/** The server options a command line asks for, plus where the key came from. */
export interface ServeSimArgs {
  options: SimServerOptions & { hostname: string; port: number };
  /** The environment variable that holds the key, if any. */
  apiKeyEnv?: string;
}

/** Each fault-rate flag and the fault it sets. */
const RATE_FLAGS = {
  "rate-429": "rate429",
  "rate-500": "rate500",
  "rate-503": "rate503",
  "rate-hang": "rateHang",
  "rate-drop": "rateDrop",
  "rate-malformed": "rateMalformed",
} as const;

/** The fault-rate flags, in `parseCli`'s form. */
const RATE_OPTIONS = Object.fromEntries(
  Object.keys(RATE_FLAGS).map((flag) => [flag, { type: "string" }]),
) as Record<keyof typeof RATE_FLAGS, { type: "string" }>;

/** How `serve-sim` reads its command line (every flag takes a value but `--sim-latency`). */
const SERVE_SIM_CLI = {
  usage: SERVE_SIM_USAGE,
  subject: "flags",
  allowPositionals: false,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    seed: { type: "string" },
    latency: { type: "string" },
    "sim-latency": { type: "boolean" },
    "retry-after": { type: "string" },
    "api-key-env": { type: "string" },
    ...RATE_OPTIONS,
  },
} as const;

/**
 * Parses `serve-sim` flags.
 *
 * @param args Command-line arguments (without the script).
 * @param env Reads environment variables (for `--api-key-env`).
 * @returns The server options.
 * @throws {CliExit} Code 0 with the usage on `--help`; code 2 with
 *   "Cannot parse flags: <why>" and the usage on an unknown flag, a bad
 *   value or an unset key variable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseServeSimArgs } from "./serve_sim.ts";
 * const { options } = parseServeSimArgs(["--port", "0", "--rate-429", "0.1", "--retry-after", "2"]);
 * assert.equal(options.port, 0);
 * assert.equal(options.hostname, "127.0.0.1");
 * assert.deepEqual(options.faults, { rate429: 0.1, retryAfterS: 2 });
 * assert.throws(() => parseServeSimArgs(["--rate-500", "2"]), /between 0 and 1/);
 * assert.throws(() => parseServeSimArgs(["--help"]), /^CliExit: Usage: deno task serve-sim/);
 * ```
 */
export function parseServeSimArgs(
  args: string[],
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): ServeSimArgs {
  const { values } = parseCli(args, SERVE_SIM_CLI);
  const flags: Record<string, string | boolean | undefined> = values;
  const problem = (message: string) =>
    usageError(`Cannot parse flags: ${message}`, SERVE_SIM_USAGE);
  const number = (
    flag: string,
    fallback: number,
    check: (n: number) => string | null,
  ) => {
    const raw = flags[flag];
    if (raw === undefined) return fallback;
    const value = Number(raw);
    const wrong = Number.isFinite(value) && raw !== ""
      ? check(value)
      : "a number";
    if (wrong !== null) {
      throw problem(`--${flag} must be ${wrong}, got "${raw}"`);
    }
    return value;
  };
  const nonNegative = (n: number) => n >= 0 ? null : "a number >= 0";
  const options: ServeSimArgs["options"] = {
    hostname: values.host ?? "127.0.0.1",
    port: number(
      "port",
      8000,
      (n) =>
        Number.isInteger(n) && n >= 0 && n <= 65535
          ? null
          : "an integer port (0-65535)",
    ),
    seed: number("seed", 0, (n) => Number.isInteger(n) ? null : "an integer"),
    latencyMs: number("latency", 0, nonNegative),
    useSimLatency: values["sim-latency"] === true,
  };
  const faults: NonNullable<SimServerOptions["faults"]> = {};
  for (const [flag, key] of Object.entries(RATE_FLAGS)) {
    if (flags[flag] !== undefined) {
      faults[key] = number(
        flag,
        0,
        (n) => n >= 0 && n <= 1 ? null : "a rate between 0 and 1",
      );
    }
  }
  if (values["retry-after"] !== undefined) {
    faults.retryAfterS = number("retry-after", 1, nonNegative);
  }
  if (Object.keys(faults).length > 0) options.faults = faults;
  const result: ServeSimArgs = { options };
  const apiKeyEnv = values["api-key-env"];
  if (apiKeyEnv !== undefined) {
    const key = env(apiKeyEnv);
    if (!key) {
      throw problem(`--api-key-env names ${apiKeyEnv}, which is not set`);
    }
    options.apiKey = key;
    result.apiKeyEnv = apiKeyEnv;
  }
  return result;
}

/**
 * Starts the server the flags ask for; it runs until SIGINT or SIGTERM.
 * Resolves to 0 once it listens; `--help` and bad flags are `CliExit`s.
 */
async function serve(args: string[]): Promise<number> {
  const parsed = parseServeSimArgs(args);
  const { hostname, port } = parsed.options;
  let server;
  try {
    server = await startSimServer({
      backend: createSimBackend(SIM_SKILLS),
      ...parsed.options,
    });
  } catch (error) {
    // A taken port or an address not of this machine, in words (exit 2).
    throw osError(error, {
      action: "start the sim server",
      port,
      host: hostname,
      flag: "--port",
    });
  }
  if (!/^(127\.|localhost$|::1$|\[::1\]$)/.test(hostname)) {
    console.warn(
      `Warning: listening on ${hostname}, which is not a loopback address.`,
    );
  }
  console.log(`Sim server: ${server.baseURL}`);
  console.log(
    parsed.apiKeyEnv
      ? `Requires Authorization: Bearer <$${parsed.apiKeyEnv}>`
      : "No API key required (clients may send any key).",
  );
  if (parsed.options.faults) {
    console.log(`Faults: ${JSON.stringify(parsed.options.faults)}`);
  }
  console.log("Models:");
  for (const profile of SIM_PROFILES) {
    console.log(`  ${profile.name.padEnd(14)} ${profile.description}`);
  }
  const stop = async () => {
    console.log(`\nStopping; ${JSON.stringify(server.stats())}`);
    await server.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  return 0;
}

if (import.meta.main) {
  // 0 leaves the process running: the server, or nothing after --help.
  const code = await runCli(() => serve(Deno.args));
  if (code !== 0) Deno.exit(code);
}
