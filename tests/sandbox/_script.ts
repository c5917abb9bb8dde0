/**
 * Runs a TypeScript source as its own Deno program (with the given flags)
 * and gives its standard output: for what only a process started with
 * other permissions can show.
 *
 * @module
 */

/** Writes `source` to a temporary file, runs it, removes it; stdout. */
export async function denoScriptOutput(
  source: string,
  flags: readonly string[],
): Promise<string> {
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(script, source);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(script);
  }
}
