/**
 * The preamble the CLIs share (`lib/args.ts`), end to end: `--help`
 * prints the usage to stdout and exits 0; an unknown flag prints one
 * "Cannot parse ..." line and the usage to stderr and exits 2.
 */
import assert from "node:assert/strict";
import { runCli } from "../e2e/_cli.ts";

/** Each CLI, the start of its usage, and what it calls a bad flag. */
const CLIS = [
  ["sweep", "Usage: deno task sweep", "Cannot parse the arguments"],
  ["merge", "Usage: deno task merge", "Cannot parse the arguments"],
  ["notebooks", "Usage: deno task notebooks", "Cannot parse the arguments"],
  ["batch", "Usage:\n  deno task batch submit", "Cannot parse the arguments"],
  ["report", "Usage: deno task report", "Cannot parse the arguments"],
  ["serve_sim", "Usage: deno task serve-sim", "Cannot parse flags"],
  ["sandbox", "usage: deno task sandbox", "Cannot parse the arguments"],
  ["demo", "Usage: deno task demo", "Cannot parse the arguments"],
] as const;

const run = (cli: string, args: string[]) =>
  runCli(`lib/cli/${cli}.ts`, args, { env: { NO_COLOR: "1" } });

Deno.test("parseCli() in every CLI: --help prints the usage and exits 0; an unknown flag exits 2 with the usage", async () => {
  const problems: string[] = [];
  for (const [cli, usage, parseError] of CLIS) {
    const [help, bad] = await Promise.all([
      run(cli, ["--help"]),
      run(cli, ["--bogus"]),
    ]);
    if (help.code !== 0 || !help.stdout.startsWith(usage) || help.stderr) {
      problems.push(
        `${cli} --help: exit ${help.code}\n${help.stdout}\nstderr: ${help.stderr}`,
      );
    }
    const expected = `${parseError}: Unknown option '--bogus'`;
    if (
      bad.code !== 2 || !bad.stderr.startsWith(expected) ||
      !bad.stderr.includes(`\n${usage}`) || bad.stdout
    ) {
      problems.push(`${cli} --bogus: exit ${bad.code}\n${bad.stderr}`);
    }
  }
  assert.deepEqual(problems, []);
});
