/**
 * The command-line preamble the CLIs share: flags parsed by `node:util`'s
 * `parseArgs`, `--help` (or `-h`) printing the usage and exiting 0, and a
 * usage problem printing "<message>\n<usage>" and exiting 2.
 *
 * A CLI's `main` calls {@linkcode parseCli}, throws {@linkcode usageError}
 * for its own checks, and is run by {@linkcode runCli}, which prints what a
 * {@linkcode CliExit} carries and returns its exit code.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { osErrorMessage } from "./os_error.ts";

/** The flags a CLI declares, in `parseArgs`'s form. */
export type CliFlags = NonNullable<ParseArgsConfig["options"]>;

/** How {@linkcode parseCli} reads a command line. */
export interface CliSpec<F extends CliFlags> {
  /** Printed for `--help`, and under every usage problem. */
  usage: string;
  /** The flags besides `--help`/`-h`, which every CLI gets. */
  options: F;
  /** Whether arguments that are not flags are allowed. @default true */
  allowPositionals?: boolean;
  /**
   * What a bad flag's message says could not be parsed: "Cannot parse
   * <subject>: <why>".
   * @default "the arguments"
   */
  subject?: string;
}

/**
 * Ends a command before it runs: `--help` (code 0, the usage for stdout)
 * or a usage problem (code 2, the message and usage for stderr).
 * {@linkcode runCli} prints it and returns the code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CliExit } from "./args.ts";
 * const help = new CliExit(0, "Usage: deno task x");
 * assert.equal(help.code, 0);
 * assert.equal(help.message, "Usage: deno task x");
 * ```
 */
export class CliExit extends Error {
  override name = "CliExit";
  /** The exit code: 0 after `--help`, 2 after a usage problem. */
  readonly code: 0 | 2;

  /**
   * @param code 0 after `--help`, 2 after a usage problem.
   * @param text What to print: the usage, or the message and the usage.
   */
  constructor(code: 0 | 2, text: string) {
    super(text);
    this.code = code;
  }
}

/**
 * A usage problem: "<message>\n<usage>", exit 2.
 *
 * @param message "Cannot <action>: <why>; <what to do>".
 * @param usage The CLI's usage text.
 * @returns The {@linkcode CliExit} to throw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usageError } from "./args.ts";
 * const exit = usageError("Cannot merge: give --out", "Usage: deno task merge");
 * assert.equal(exit.code, 2);
 * assert.equal(exit.message, "Cannot merge: give --out\nUsage: deno task merge");
 * ```
 */
export function usageError(message: string, usage: string): CliExit {
  return new CliExit(2, `${message}\n${usage}`);
}

/**
 * Parses a command line with `parseArgs` (strict: an unknown flag or a
 * missing value is an error), adding `--help`/`-h`.
 *
 * @param args The arguments after the script.
 * @param spec The usage, the flags and whether positionals are allowed.
 * @returns The flags' values and the positionals.
 * @throws {CliExit} Code 0 with the usage on `--help`; code 2 with
 *   "Cannot parse the arguments: <why>" (`spec.subject` in place of "the
 *   arguments" when given) and the usage on a bad flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CliExit, parseCli } from "./args.ts";
 * const spec = { usage: "Usage: deno task x [--out <dir>]", options: { out: { type: "string" } } } as const;
 * const { values, positionals } = parseCli(["a", "--out", "o"], spec);
 * assert.equal(values.out, "o");
 * assert.deepEqual(positionals, ["a"]);
 * assert.throws(() => parseCli(["-h"], spec), (e: unknown) => e instanceof CliExit && e.code === 0);
 * assert.throws(
 *   () => parseCli(["--bogus"], spec),
 *   (e: unknown) => e instanceof CliExit && e.code === 2 && /^Cannot parse the arguments: .*--bogus.*\nUsage: deno task x/s.test(e.message),
 * );
 * assert.throws(() => parseCli(["--bogus"], { ...spec, subject: "flags" }), /^CliExit: Cannot parse flags: /);
 * ```
 */
export function parseCli<const F extends CliFlags>(
  args: readonly string[],
  spec: CliSpec<F>,
) {
  const {
    usage,
    options,
    allowPositionals = true,
    subject = "the arguments",
  } = spec;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals,
      options: {
        ...options,
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw usageError(
      `Cannot parse ${subject}: ${(error as Error).message}`,
      usage,
    );
  }
  if ((parsed.values as { help?: boolean }).help) {
    throw new CliExit(0, usage);
  }
  return parsed;
}

/** Where {@linkcode runCli} prints. */
export interface CliOutput {
  /** Gets the usage after `--help`. @default console.log */
  print?: (text: string) => void;
  /** Gets a usage problem. @default console.error */
  printError?: (text: string) => void;
}

/**
 * Runs a CLI's `main`: a {@linkcode CliExit} it throws is printed (to
 * `print` for `--help`, else to `printError`) and its code returned; an
 * input error (named `…InputError`, `…PathError`, `RunDirError`) prints
 * its message and returns 2; an operating-system or connection error
 * prints its message in words (`osErrorMessage`) and returns its exit
 * code (2 for a bad path, 1 for the machine or an endpoint); any other
 * error prints its message without a stack (unless `CALC_BENCH_DEBUG=1`)
 * and returns 1.
 *
 * @param main The command; resolves to its exit code.
 * @param output Where a `CliExit` is printed.
 * @returns The exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCli, runCli } from "./args.ts";
 * const spec = { usage: "Usage: deno task x", options: {} };
 * const errors: string[] = [];
 * const code = await runCli(() => {
 *   parseCli(["--bogus"], spec);
 *   return 0;
 * }, { printError: (text: string) => errors.push(text) });
 * assert.equal(code, 2);
 * assert.match(errors[0]!, /^Cannot parse the arguments: .*\nUsage: deno task x$/s);
 * assert.equal(await runCli(() => 0), 0);
 * class DataInputError extends Error { override name = "DataInputError"; }
 * const bad = () => { throw new DataInputError("Cannot load x.csv: line 3 ..."); };
 * assert.equal(await runCli(bad, { printError: () => {} }), 2);
 * const broken = () => { throw new Error("disk full"); };
 * assert.equal(await runCli(broken, { printError: (t: string) => errors.push(t) }), 1);
 * assert.doesNotMatch(errors.at(-1)!, /^\s+at /m);
 * const loose = async () => (await Deno.readTextFile("/")).length;
 * assert.equal(await runCli(loose, { printError: (t: string) => errors.push(t) }), 2);
 * assert.match(errors.at(-1)!, /^Cannot read \/: \/ is a folder, not a file; /);
 * ```
 */
export async function runCli(
  main: () => number | Promise<number>,
  output: CliOutput = {},
): Promise<number> {
  const { print = console.log, printError = console.error } = output;
  try {
    return await main();
  } catch (error) {
    if (error instanceof CliExit) {
      (error.code === 0 ? print : printError)(error.message);
      return error.code;
    }
    // Never a stack trace for the user: bad input (an error named
    // *InputError, *PathError or RunDirError, whose message says what to
    // do) exits 2; anything else is a failure of the machine or the tool,
    // exit 1, with the stack only on request.
    const e = error instanceof Error ? error : new Error(String(error));
    if (/(InputError|PathError|RunDirError)$/.test(e.name)) {
      printError(e.message);
      return 2;
    }
    // An OS or connection error nobody caught: in words, never "(os
    // error N)", its path taken from Deno's message.
    const os = osErrorMessage(e);
    if (os !== null) {
      printError(debugging() ? String(e.stack ?? os.message) : os.message);
      return os.exitCode;
    }
    printError(
      debugging()
        ? String(e.stack ?? e.message)
        : `${e.message}\n(set CALC_BENCH_DEBUG=1 to see where it failed)`,
    );
    return 1;
  }
}

/** `CALC_BENCH_DEBUG=1`, read only where the task may read the environment. */
function debugging(): boolean {
  const env = { name: "env", variable: "CALC_BENCH_DEBUG" } as const;
  return Deno.permissions.querySync(env).state === "granted" &&
    Deno.env.get("CALC_BENCH_DEBUG") === "1";
}
