/**
 * `deno task sandbox`: bad `--timeout`/`--memory` values and unreadable
 * program files exit 2 before the sandbox starts, with a message that names
 * the flag or file and says what to do — no OS error number, no stack trace.
 */
import assert from "node:assert/strict";
import { runCli } from "../e2e/_cli.ts";
import { join } from "node:path";

const run = (args: string[]) =>
  runCli("lib/cli/sandbox.ts", args, { env: { NO_COLOR: "1" } });

/** Why a run is not a clean usage exit starting with `expected`, if it is not. */
function problem(
  what: string,
  r: { code: number; stdout: string; stderr: string },
  expected: string,
): string[] {
  const clean = r.code === 2 && r.stderr.startsWith(expected) &&
    r.stderr.includes("\nusage: deno task sandbox") &&
    !/os error|\n\s+at /.test(r.stderr) && r.stdout === "";
  return clean ? [] : [`${what}: exit ${r.code}\n${r.stderr}${r.stdout}`];
}

Deno.test("sandbox CLI: bad limits and unreadable files exit 2 naming the flag or file, without 'os error' or a stack", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const prog = join(dir, "add.py");
    await Deno.writeTextFile(prog, "def add(a, b):\n    return a + b\n");
    const folder = join(dir, "folder.py");
    await Deno.mkdir(folder);
    const missing = join(dir, "missing.py");
    const under = join(prog, "inner.py");
    const ms = "--timeout takes a number of milliseconds above 0";
    const mb = "--memory takes a number of megabytes above 0";
    // [args, what the first line of stderr must start with]
    const cases: [string[], string][] = [
      [
        ["--timeout", "abc"],
        `Cannot run: ${ms} and at most 2147483647, not "abc"`,
      ],
      [["--timeout", "0"], `Cannot run: ${ms}`],
      [["--timeout=-5"], `Cannot run: ${ms}`],
      [["--timeout", "5s"], `Cannot run: ${ms}`],
      [["--timeout", "1e3"], `Cannot run: ${ms}`],
      [["--timeout", ""], `Cannot run: ${ms}`],
      [["--timeout", "3000000000"], `Cannot run: ${ms}`],
      [["--memory", "NaN"], `Cannot run: ${mb}, not "NaN"; give e.g.`],
      [["--memory", "0"], `Cannot run: ${mb}`],
      [["--memory", "12MB"], `Cannot run: ${mb}`],
      [["--memory=-1"], `Cannot run: ${mb}`],
    ];
    const problems: string[] = [];
    for (const [flags, expected] of cases) {
      const r = await run([prog, "--entry", "add", ...flags]);
      problems.push(...problem(flags.join(" "), r, expected));
    }
    const files: [string, string][] = [
      [missing, `Cannot read ${missing}: it does not exist; give the path`],
      [folder, `Cannot read ${folder}: it is a folder, not a file`],
      [under, `Cannot read ${under}: ${prog} is a file, not a folder`],
    ];
    for (const [file, expected] of files) {
      // Good limits pass through to the file check.
      const flags = ["--timeout", "2500.5", "--memory", "128"];
      const r = await run([file, "--entry", "add", ...flags]);
      problems.push(...problem(file, r, expected));
    }
    // A request the sandbox refuses (TypeError) is a usage problem too.
    const bad = await run([prog, "--entry", "1bad"]);
    problems.push(
      ...problem(
        "--entry 1bad",
        bad,
        'Cannot run code: entry must be a function name (an identifier), got "1bad"',
      ),
    );
    assert.deepEqual(problems, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
