/** Spawning `lib/cli/sweep.ts` as a subprocess, as `deno task sweep` does. */
import { dirname, fromFileUrl } from "./_path.ts";
import { mulberry32 } from "../../lib/math/rng.ts";

export const ROOT = dirname(dirname(dirname(fromFileUrl(import.meta.url))));

/** Starts the sweep CLI with `args`; output is piped. */
export function spawnSweep(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${ROOT}/deno.json`,
      `${ROOT}/lib/cli/sweep.ts`,
      ...args,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
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
