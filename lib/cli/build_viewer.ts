/**
 * `deno task build:viewer`: rebuilds the sample viewer's committed script
 * (`lib/report/viewer/_client.bundle.js`) from `lib/report/viewer/client/`.
 * Run it after changing the client; a test fails while the committed
 * bundle is stale. Takes no flags but `--help`.
 *
 * @module
 */
import { BUNDLE_URL, bundleViewer } from "../report/viewer/bundle.ts";

const USAGE = `Usage: deno task build:viewer

Bundles lib/report/viewer/client/main.ts with deno bundle into
lib/report/viewer/_client.bundle.js, the script the report inlines.
Commit the result; tests/report/viewer_bundle_test.ts fails while it is stale.`;

async function main(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  if (args.length > 0) {
    console.error(
      `Cannot build the viewer: unexpected argument ${
        JSON.stringify(args[0])
      }; run deno task build:viewer with no arguments`,
    );
    return 2;
  }
  try {
    const started = performance.now();
    const js = await bundleViewer();
    await Deno.writeTextFile(BUNDLE_URL, js);
    console.log(
      `${BUNDLE_URL.pathname}: ${
        js.length.toLocaleString("en")
      } characters in ${Math.round(performance.now() - started)} ms`,
    );
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
