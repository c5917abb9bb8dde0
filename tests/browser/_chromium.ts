/**
 * Headless Chromium for the browser tests: Debian's /usr/bin/chromium
 * (or `EVAL_CHROMIUM`) driven by playwright-core, never a downloaded
 * browser, with the flags that keep it off this closed network.
 */
import { chromium } from "playwright-core";

/** The browser the tests drive. */
export const CHROMIUM = Deno.env.get("EVAL_CHROMIUM") ?? "/usr/bin/chromium";

/** Launches it with a fresh profile folder and the given viewport. */
export async function launchChromium(
  userDataDir: string,
  viewport: { width: number; height: number } = { width: 1100, height: 900 },
) {
  try {
    await Deno.stat(CHROMIUM);
  } catch {
    throw new Error(
      `Cannot run the browser test: ${CHROMIUM} is missing (apt-get install -y chromium; tests/setup.sh does it as root)`,
    );
  }
  return await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport,
  });
}
