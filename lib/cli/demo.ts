/**
 * `deno task demo [config.json] [--output-dir <dir>]`: the main job on a
 * fresh machine.
 *
 * Runs the demo sweep (default `data/configs/demo.json`: the sim profiles on
 * the arithmetic, linear-algebra and C-Eval suites, in process) plus one sim
 * model reached over real HTTP through the sim server and the `openai`
 * client — the same path a real endpoint takes — then prints accuracy with
 * 95% intervals per suite and model, and writes the HTML report and
 * `summary.csv`.
 *
 * @module
 */
import {
  ConfigError,
  loadConfig,
  loadRuns,
  parseConfig,
  runSweep,
  startSimServer,
  summaryText,
  writeReport,
  writeSummaryCsv,
} from "../mod.ts";
import { parseCli, runCli, usageError } from "../args.ts";

const USAGE = "Usage: deno task demo [config.json] [--output-dir <dir>]";

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: { "output-dir": { type: "string" } },
  });
  if (positionals.length > 1) {
    throw usageError(
      `Cannot run the demo: give at most one config file (got ${positionals.length}: ${
        positionals.join(", ")
      })`,
      USAGE,
    );
  }
  const path = positionals[0] ?? "data/configs/demo.json";
  const outputDir = values["output-dir"];
  let loaded;
  try {
    loaded = await loadConfig(path);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const server = await startSimServer({ seed: loaded.config.seed });
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error("interrupted"));
  Deno.addSignalListener("SIGINT", onSigint);
  try {
    // One model over loopback HTTP: shows the openai-compatible path end to end.
    const config = parseConfig({
      ...loaded.config,
      models: [...loaded.config.models, {
        name: "sim-average-http",
        provider: "openai",
        model: "sim-average",
        baseURL: server.baseURL,
        concurrency: 32,
      }],
      // The server's port changes each time; caching its replies would only grow the cache.
      cache: false,
      ...(outputDir === undefined ? {} : { outputDir }),
    }, path);
    console.log(
      `Demo: ${config.models.length} models (${
        config.models.map((m) => m.name).join(", ")
      }); sim server at ${server.baseURL}`,
    );
    const result = await runSweep(config, {
      baseDir: loaded.baseDir,
      progress: "auto",
      signal: controller.signal,
    });
    if (result.interrupted) {
      console.error(
        `Interrupted: rows so far are in ${result.runDir}. Resume with: deno task sweep --resume ${result.runDir}`,
      );
      return 130;
    }
    console.log(
      `\n${result.done} rows (${result.errors} errors) in ${
        result.elapsedSeconds.toFixed(1)
      } s → ${result.runDir}\n`,
    );
    const { frame } = await loadRuns([result.runDir], { warn: false });
    console.log(await summaryText(frame, ["suite", "model"]));
    const report = await writeReport(result.runDir);
    console.log(`\nReport: ${report}`);
    console.log(`Summary CSV: ${await writeSummaryCsv(result.runDir)}`);
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onSigint);
    await server.close();
  }
}

if (import.meta.main) Deno.exit(await runCli(() => main(Deno.args)));
