/**
 * `deno task build:viewer`: rebuilds the sample viewer's committed script
 * (`lib/report/viewer/_client.bundle.js`) from `lib/report/viewer/client/`.
 * Run it after changing the client; a test fails while the committed
 * bundle is stale.
 *
 * @module
 */
import { BUNDLE_URL, bundleViewer } from "../report/viewer/bundle.ts";

if (import.meta.main) {
  const started = performance.now();
  const js = await bundleViewer();
  await Deno.writeTextFile(BUNDLE_URL, js);
  console.log(
    `${BUNDLE_URL.pathname}: ${js.length.toLocaleString("en")} characters in ${
      Math.round(performance.now() - started)
    } ms`,
  );
}
