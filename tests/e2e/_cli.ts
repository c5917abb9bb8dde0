/** Spawning the CLIs of `lib/cli` as subprocesses, as `deno task` does. */
import { dirname, fromFileUrl } from "./_path.ts";
import { mulberry32 } from "../../lib/math/rng.ts";

export const ROOT = dirname(dirname(dirname(fromFileUrl(import.meta.url))));

/** How a CLI is run: the environment it gets. */
export interface CliOptions {
  /** Variables added to the test's own environment. @default none */
  env?: Record<string, string>;
}

/** What a CLI that ran to the end printed, decoded. */
export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** `deno run -A` of `script` (a path under the root) with `args`; output is piped. */
function cliCommand(
  script: string,
  args: string[],
  options: CliOptions = {},
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${ROOT}/deno.json`,
      `${ROOT}/${script}`,
      ...args,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.env ? { env: options.env } : {}),
  });
}

/** Starts the sweep CLI with `args`; output is piped. */
export function spawnSweep(args: string[]): Deno.ChildProcess {
  return cliCommand("lib/cli/sweep.ts", args).spawn();
}

/** Runs `script` (a path under the root, e.g. `lib/cli/batch.ts`) to the end. */
export async function runCli(
  script: string,
  args: string[],
  options: CliOptions = {},
): Promise<CliOutput> {
  const output = await cliCommand(script, args, options).output();
  const text = new TextDecoder();
  return {
    code: output.code,
    stdout: text.decode(output.stdout),
    stderr: text.decode(output.stderr),
  };
}

/** Lines in a results file so far (0 when missing). */
export async function countRows(path: string): Promise<number> {
  try {
    const bytes = await Deno.readFile(path);
    let n = 0;
    for (const b of bytes) if (b === 10) n++;
    return n;
  } catch {
    return 0;
  }
}

/** A small seeded PRNG (mulberry32) for kill moments. */
export function rng(seed: number): () => number {
  return mulberry32(seed);
}
