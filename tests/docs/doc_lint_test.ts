/**
 * The package's public API passes `deno doc --lint`: every entry of
 * `deno.json`'s `exports` map, linted together (so a type one entry's
 * signature takes from another entry is public, not private).
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const { exports } = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
) as { exports: Record<string, string> };
const ENTRIES = Object.values(exports);

Deno.test(`deno doc --lint of the ${ENTRIES.length} exported entries reports no problems`, async () => {
  assert.ok(ENTRIES.length >= 10, `${ENTRIES.length} entries`);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...ENTRIES],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  // npm type-resolution warnings (openai's optional node-fetch) are noise.
  const report = (decode(stdout) + decode(stderr))
    .split("\n")
    .filter((l) => !/^Warning Failed resolving|^ {4}at file:/.test(l))
    .join("\n");
  assert.equal(code, 0, `deno doc --lint failed:\n${report}`);
});
