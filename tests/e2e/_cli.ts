/** Spawning `lib/cli/sweep.ts` as a subprocess, as `deno task sweep` does. */
import { dirname, fromFileUrl } from "./_path.ts";

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
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
