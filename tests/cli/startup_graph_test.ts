/**
 * A sweep starts light because its CLI loads only what every sweep needs;
 * the rest (suites, the progress bar, the plan's tokenizer, the sim server,
 * the JSONC diagnostics, Polars) loads when used. Timing belongs to the
 * bench (`tests/bench/startup_bench.ts`); this test guards the structure:
 * the modules Deno loads when the CLI starts, read from `deno info --json`
 * (static imports and literal dynamic ones, which Deno prepares at load;
 * type-only references are not loaded at run time).
 */
import assert from "node:assert/strict";
import { SUITE_NAMES } from "../../lib/suites/registry.ts";

interface Info {
  roots: string[];
  redirects: Record<string, string>;
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string } }[];
  }[];
}

async function runtimeGraph(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>(info.roots);
  const stack = [...info.roots];
  while (stack.length > 0) {
    for (const dep of modules.get(stack.pop()!)?.dependencies ?? []) {
      if (dep.code === undefined) continue;
      const target = info.redirects[dep.code.specifier] ?? dep.code.specifier;
      if (!seen.has(target)) {
        seen.add(target);
        stack.push(target);
      }
    }
  }
  return seen;
}

Deno.test("the sweep CLI loads only zod, p-limit and noble's SHA-256 from npm, no provider and no suite until the config names them", async () => {
  const graph = await runtimeGraph("lib/cli/sweep.ts");
  const npm = [...graph].filter((s) => s.startsWith("npm:"))
    .map((s) => s.replace(/^npm:\/?/, "").replace(/@[^@/]+$/, "")).sort();
  assert.deepEqual(npm, ["@noble/hashes@2.4.0/sha2.js", "p-limit", "zod"]);
  const local = [...graph].filter((s) => s.startsWith("file:"))
    .map((s) => s.slice(s.indexOf("/lib/") + 1));
  const unwanted = local.filter((path) =>
    /^lib\/suites\/[^/]+\//.test(path) || // a suite's own folder
    /^lib\/(plan|batch|merge)\//.test(path) ||
    (/^lib\/report\//.test(path) &&
      ![
        "lib/report/tally.ts",
        "lib/report/tally_table.ts",
        "lib/report/tally_file.ts",
        "lib/report/completeness.ts",
        "lib/report/_group_keys.ts",
        "lib/report/wilson.ts",
      ].includes(path)) ||
    // Providers load by kind (lib/providers/load.ts): the openai client
    // only for endpoints, the sim only for sim models.
    /^lib\/providers\/(openai|sim|create|mod|_transport|_server_core|_batch_server|_batch_input|_batch_replies|_sim_files|_multipart|_faults|_sim_backend)\.ts$/
      .test(path) ||
    /^lib\/providers\/sim\//.test(path)
  );
  assert.deepEqual(unwanted, []);
  // The shared layers are all there is: about 55 modules today.
  assert.ok(local.length < 80, `${local.length} modules: ${local.join(", ")}`);
});

Deno.test("a suite, as the registry loads it, brings no report code, Polars, Plot, linkedom, mathjs or tokenizer", async () => {
  for (const name of SUITE_NAMES) {
    const graph = await runtimeGraph(`lib/suites/${name}/suite.ts`);
    const heavy = [...graph].filter((s) =>
      /^npm:\/?(nodejs-polars|@observablehq\/plot|linkedom|mathjs|gpt-tokenizer|pyodide|playwright-core)@/
        .test(s) ||
      /\/lib\/report\//.test(s) || /\/report\/sections\.ts$/.test(s)
    );
    assert.deepEqual(heavy, [], `suite ${name}`);
  }
});
