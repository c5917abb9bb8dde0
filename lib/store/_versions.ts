/**
 * Versions recorded in a manifest: Deno, pinned libraries, git revision.
 *
 * @module
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** Deno/V8/TypeScript versions and the pinned npm imports of deno.json. */
export async function environmentVersions(): Promise<{
  deno: string;
  v8: string;
  typescript: string;
  libraries: Record<string, string>;
}> {
  let libraries: Record<string, string> = {};
  try {
    const json = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
    libraries = json.imports ?? {};
  } catch {
    // no deno.json next to the library (e.g. imported from elsewhere)
  }
  return { ...Deno.version, libraries };
}

/** `git rev-parse HEAD` of the toolkit, or null without git. */
export async function gitRevision(): Promise<string | null> {
  try {
    const out = await new Deno.Command("git", {
      args: ["rev-parse", "HEAD"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    const rev = new TextDecoder().decode(out.stdout).trim();
    return rev === "" ? null : rev;
  } catch {
    return null;
  }
}
