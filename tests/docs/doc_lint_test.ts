import assert from "node:assert/strict";

/**
 * Entry points whose public API must pass `deno doc --lint`. A suite entry
 * is linted together with `lib/mod.ts`, which exports the flow and report
 * types its signatures share.
 */
const ENTRIES: string[][] = [
  ["lib/mod.ts"],
  ["lib/mod.ts", "lib/suites/ceval/mod.ts"],
  ["lib/mod.ts", "lib/suites/linalg/mod.ts"],
  ["lib/mod.ts", "lib/suites/arithmetic/mod.ts"],
  ["lib/mod.ts", "lib/runner/mod.ts"],
  ["lib/mod.ts", "lib/suites/code/mod.ts", "lib/sandbox/mod.ts"],
  ["lib/mod.ts", "lib/suites/code/mutate/mod.ts"],
  ["lib/mod.ts", "lib/store/mod.ts"],
  ["lib/mod.ts", "lib/suites/qa/mod.ts"],
];

for (const roots of ENTRIES) {
  const entry = roots.join(" ");
  Deno.test(`deno doc --lint ${entry} reports no problems`, async () => {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["doc", "--lint", ...roots],
      cwd: new URL("../../", import.meta.url),
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
    assert.equal(code, 0, `deno doc --lint ${entry} failed:\n${report}`);
  });
}
