/**
 * `deno task sandbox <file.py|file.js|file.ts> --entry NAME --args JSON
 * [--args JSON ...] [--timeout MS] [--memory MB]`: runs a program's entry
 * function in the sandbox and prints the status, each call's result and
 * time, and the program's output. `--args` is one JSON array of arguments
 * per call (repeat the flag for more calls).
 *
 * @module
 */
import { closeSandbox, type Language, runCode } from "../sandbox/mod.ts";

const USAGE =
  "usage: deno task sandbox <file.py|file.js|file.ts> --entry NAME --args JSON [--args JSON ...] [--timeout MS] [--memory MB]";

function fail(message: string): never {
  console.error(message);
  console.error(USAGE);
  Deno.exit(2);
}

const args = [...Deno.args];
let file: string | undefined;
let entry: string | undefined;
const calls: unknown[][] = [];
let timeoutMs = 10_000;
let memoryMb = 512;
while (args.length) {
  const a = args.shift()!;
  if (a === "--entry") entry = args.shift();
  else if (a === "--args") {
    const text = args.shift() ?? fail("Cannot parse --args: no value");
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      fail(
        `Cannot parse --args: ${
          (e as Error).message
        }; give a JSON array such as '[1, 2]'`,
      );
    }
    if (!Array.isArray(v)) {
      fail("Cannot parse --args: not a JSON array; wrap the arguments in [ ]");
    }
    calls.push(v);
  } else if (a === "--timeout") timeoutMs = Number(args.shift());
  else if (a === "--memory") memoryMb = Number(args.shift());
  else if (a === "--help" || a === "-h") {
    console.log(USAGE);
    Deno.exit(0);
  } else if (!file) file = a;
  else fail(`Cannot run: unexpected argument ${a}`);
}
if (!file) fail("Cannot run: no program file given");
if (!entry) fail("Cannot run: no --entry given");
const ext = file.split(".").pop();
const language: Language | undefined = ext === "py"
  ? "python"
  : ext === "js" || ext === "mjs"
  ? "javascript"
  : ext === "ts"
  ? "typescript"
  : undefined;
if (!language) {
  fail(`Cannot run ${file}: the extension must be .py, .js or .ts`);
}
let code: string;
try {
  code = await Deno.readTextFile(file);
} catch (e) {
  fail(`Cannot read ${file}: ${(e as Error).message}`);
}
const started = performance.now();
try {
  const r = await runCode({
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
} catch (e) {
  fail((e as Error).message);
} finally {
  await closeSandbox();
}
