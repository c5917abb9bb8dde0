/** The lazy registry and the loaded list agree: one list, one order. */
import assert from "node:assert/strict";
import { loadSuites, SUITE_NAMES, SUITES } from "../../lib/suites/mod.ts";

Deno.test("loadSuites() gives the same suite objects, in registry order, as SUITES", async () => {
  assert.deepEqual(SUITES.map((s) => s.name), [...SUITE_NAMES]);
  const all = await loadSuites();
  assert.equal(all.length, SUITES.length);
  all.forEach((suite, i) => assert.equal(suite, SUITES[i]));
});

Deno.test("loadSuites(names) loads the named suites only, in registry order, ignoring unknown names", async () => {
  const some = await loadSuites(["arithmetic", "nope", "linalg"]);
  assert.deepEqual(some.map((s) => s.name), ["linalg", "arithmetic"]);
  assert.deepEqual(await loadSuites([]), []);
});
