/**
 * `deno task sandbox <file.py|file.js|file.ts> --entry NAME --args JSON
 * [--args JSON ...] [--timeout MS] [--memory MB] [--python auto|native|pyodide]
 * [--concurrency N]`: runs a program's entry function in the sandbox and
 * prints where it ran, the status, each call's result and time, and the
 * program's output. `--args` is one JSON array of arguments per call
 * (repeat the flag for more calls); `--python` picks the Python backend
 * (native CPython in bubblewrap, Pyodide, or native when available);
 * `--concurrency` is how many sandbox processes run at once.
 *
 * @module
 */
import { decodeText, EncodingInputError } from "../inputs/decode.ts";
import {
  checkMemoryFloor,
  createSandbox,
  type Language,
  type PythonChoice,
} from "../sandbox/mod.ts";
import { fsReason } from "../store/mod.ts";
import { parseCli, runCli, usageError } from "../args.ts";

const USAGE =
  "usage: deno task sandbox <file.py|file.js|file.ts> --entry NAME --args JSON [--args JSON ...] [--timeout MS] [--memory MB] [--python auto|native|pyodide] [--concurrency N]";

const PYTHON_CHOICES: readonly PythonChoice[] = ["auto", "native", "pyodide"];

/** One `--args` value: a JSON array of one call's arguments. */
function parseCall(text: string): unknown[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw usageError(
      `Cannot parse --args: ${
        (e as Error).message
      }; give a JSON array such as '[1, 2]'`,
      USAGE,
    );
  }
  if (!Array.isArray(v)) {
    throw usageError(
      "Cannot parse --args: not a JSON array; wrap the arguments in [ ]",
      USAGE,
    );
  }
  return v;
}

/** What a limit flag measures, and the most it may be. */
interface LimitUnit {
  /** The unit the number is in, as the usage names it. */
  unit: string;
  /** An example value for the message. */
  example: string;
  /** The largest value that works, if there is one. */
  max?: number;
}

/** A timer longer than 2^31 - 1 ms would fire at once. */
const TIMEOUT: LimitUnit = {
  unit: "milliseconds",
  example: "5000",
  max: 2 ** 31 - 1,
};
/** Memory above the idle worker's. */
const MEMORY: LimitUnit = { unit: "megabytes", example: "256" };
/** Sandbox processes at once. */
const CONCURRENCY: LimitUnit = { unit: "processes", example: "2", max: 64 };

/** One `--timeout`/`--memory` value: a plain positive decimal number. */
function parseLimit(flag: string, text: string, limit: LimitUnit): number {
  const { unit, example, max = Infinity } = limit;
  const n = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  if (!(n > 0 && n <= max)) {
    const range = max === Infinity ? "above 0" : `above 0 and at most ${max}`;
    throw usageError(
      `Cannot run: ${flag} takes a number of ${unit} ${range}, not ${
        JSON.stringify(text)
      }; give e.g. ${flag} ${example}`,
      USAGE,
    );
  }
  return n;
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: {
      entry: { type: "string" },
      args: { type: "string", multiple: true },
      timeout: { type: "string" },
      memory: { type: "string" },
      python: { type: "string" },
      concurrency: { type: "string" },
    },
  });
  const python = (values.python ?? "auto") as PythonChoice;
  if (!PYTHON_CHOICES.includes(python)) {
    throw usageError(
      `Cannot run: --python takes ${PYTHON_CHOICES.join(", ")}, not ${
        JSON.stringify(values.python)
      }`,
      USAGE,
    );
  }
  const concurrency = values.concurrency === undefined
    ? undefined
    : parseLimit("--concurrency", values.concurrency, CONCURRENCY);
  if (concurrency !== undefined && !Number.isInteger(concurrency)) {
    throw usageError(
      `Cannot run: --concurrency takes a whole number from 1 to 64, not ${
        JSON.stringify(values.concurrency)
      }`,
      USAGE,
    );
  }
  const calls = (values.args ?? []).map(parseCall);
  const timeoutMs = values.timeout === undefined
    ? 10_000
    : parseLimit("--timeout", values.timeout, TIMEOUT);
  const memoryMb = values.memory === undefined
    ? 512
    : parseLimit("--memory", values.memory, MEMORY);
  const [file, extra] = positionals;
  if (extra !== undefined) {
    throw usageError(`Cannot run: unexpected argument ${extra}`, USAGE);
  }
  if (!file) throw usageError("Cannot run: no program file given", USAGE);
  const entry = values.entry;
  if (!entry) throw usageError("Cannot run: no --entry given", USAGE);
  const ext = file.split(".").pop();
  const language: Language | undefined = ext === "py"
    ? "python"
    : ext === "js" || ext === "mjs"
    ? "javascript"
    : ext === "ts"
    ? "typescript"
    : undefined;
  if (!language) {
    throw usageError(
      `Cannot run ${file}: the extension must be .py, .js or .ts`,
      USAGE,
    );
  }
  let code: string;
  try {
    code = decodeText(await Deno.readFile(file), {
      path: file,
      what: "the program",
    }).text;
  } catch (e) {
    if (e instanceof EncodingInputError) throw usageError(e.message, USAGE);
    throw usageError(
      `Cannot read ${file}: ${
        fsReason(e)
      }; give the path of a program file you can read`,
      USAGE,
    );
  }
  const started = performance.now();
  const sandbox = createSandbox({
    python,
    warm: 0,
    ...(concurrency === undefined ? {} : { concurrency }),
  });
  try {
    // A limit too small to start a worker: refused before one starts.
    checkMemoryFloor((await sandbox.backend(language)).backend, {
      memoryMb: Math.ceil(memoryMb),
      name: "--memory",
    });
    const r = await sandbox.runCode({
      language,
      code,
      entry,
      calls: calls.length ? calls : [[]],
      timeoutMs,
      memoryMb,
    });
    const show = (v: unknown) =>
      JSON.stringify(
        v,
        (_k, x) =>
          typeof x === "bigint"
            ? `${x}n`
            : typeof x === "number" && !Number.isFinite(x)
            ? String(x)
            : x instanceof Map
            ? { Map: [...x] }
            : x,
      );
    const where = await sandbox.backend(language);
    console.log(`backend: ${where.backend} (${where.detail}; ${where.reason})`);
    console.log(`status: ${r.status}${r.error ? ` (${r.error})` : ""}`);
    r.results.forEach((c, i) => {
      const a = show(calls[i] ?? []);
      console.log(
        c.ok
          ? `call ${i + 1} ${a} -> ${show(c.value)}  (${c.ms.toFixed(3)} ms)`
          : `call ${i + 1} ${a} -> error: ${c.error}`,
      );
    });
    if (r.stdout) console.log(`--- stdout ---\n${r.stdout.trimEnd()}`);
    if (r.stderr) console.log(`--- stderr ---\n${r.stderr.trimEnd()}`);
    console.log(`total ${(performance.now() - started).toFixed(0)} ms`);
    return 0;
  } catch (e) {
    // A malformed request (entry, calls, limits) is the caller's to fix:
    // exit 2 with the usage. Anything else is the machine's (Pyodide
    // missing, a worker that cannot start): its message and exit 1.
    if (e instanceof TypeError || e instanceof RangeError) {
      throw usageError(e.message, USAGE);
    }
    console.error(
      `Cannot run ${file} in the sandbox: ${
        e instanceof Error ? e.message : String(e)
      }`,
    );
    return 1;
  } finally {
    await sandbox.close();
  }
}

if (import.meta.main) Deno.exit(await runCli(() => main(Deno.args)));
