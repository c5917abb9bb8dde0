import assert from "node:assert/strict";
import { BUNDLE_URL, bundleViewer } from "../../lib/report/viewer/bundle.ts";

Deno.test("bundleViewer() matches the committed _client.bundle.js (run deno task build:viewer when it does not)", async () => {
  const built = await bundleViewer();
  const committed = await Deno.readTextFile(BUNDLE_URL);
  assert.ok(
    built === committed,
    "lib/report/viewer/_client.bundle.js is stale: run `deno task build:viewer` and commit it",
  );
});
