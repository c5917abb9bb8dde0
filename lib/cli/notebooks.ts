/**
 * `deno task notebooks [--run <dir>] [--out <dir>] [--grace <s>] [notebook...]`
 *
 * Executes every notebook in `notebooks/` (or those named) headless with
 * nbclient and the Deno kernel, and writes the executed `.ipynb` and `.html`
 * under `outputs/notebooks/`, then an `index.html` there linking every
 * rendered page (and the run's `report.html` when there is one). `--run` passes a run folder to the notebooks
 * (`EVAL_RUN_DIR`) instead of having them run their own sweep. Exits 1 when
 * a cell errors or a cell that should show something shows nothing.
 *
 * @module
 */
import { join, resolve } from "node:path";
// The notebook module alone: it does not load Polars (which needs --allow-ffi).
import { executeNotebook, runForNotebook } from "../report/notebook.ts";
import { writeIndexPage } from "../report/index_page.ts";
import { parseCli, runCli, usageError } from "./_args.ts";

const USAGE =
  "Usage: deno task notebooks [--run <run-dir>] [--out <dir>] [--grace <seconds>] [notebooks/x.ipynb ...]";

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: {
      run: { type: "string" },
      out: { type: "string", default: "outputs/notebooks" },
      grace: { type: "string", default: "0.5" },
    },
  });
  const grace = Number(values.grace);
  if (!(grace >= 0)) {
    throw usageError(
      `Cannot use --grace ${values.grace}: expected seconds >= 0`,
      USAGE,
    );
  }
  let runSuites: string[] | null = null;
  if (values.run) {
    try {
      await Deno.stat(values.run);
    } catch {
      console.error(`Cannot use --run ${values.run}: no such run folder`);
      return 2;
    }
    runSuites = await suitesOfRun(values.run);
  }
  const notebooks = positionals.length
    ? positionals
    : await listNotebooks("notebooks");
  let failed = 0;
  for (const path of notebooks) {
    const started = performance.now();
    const env: Record<string, string> = {};
    if (values.run) {
      const nb = JSON.parse(await Deno.readTextFile(path));
      if (runForNotebook(nb, runSuites)) {
        env.EVAL_RUN_DIR = resolve(values.run);
      } else {
        console.log(
          `· ${path} analyses ${
            nb.metadata.eval.suites.join(", ")
          }, which ${values.run} lacks: it runs its own small sweep`,
        );
      }
    }
    try {
      const r = await executeNotebook(path, {
        outDir: values.out,
        env,
        graceSeconds: grace,
      });
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      if (r.problems.length) {
        failed++;
        console.error(`✗ ${path} (${secs} s):\n  ${r.problems.join("\n  ")}`);
      } else {
        console.log(`✓ ${path} (${secs} s) → ${r.ipynb}, ${r.html}`);
      }
    } catch (error) {
      console.error((error as Error).message);
      return 1;
    }
  }
  const extra: string[] = [];
  if (values.run) {
    try {
      await Deno.stat(join(values.run, "report.html"));
      extra.push(join(values.run, "report.html"));
    } catch {
      // The run has no report yet: the index links the notebooks only.
    }
  }
  console.log(`index: ${await writeIndexPage(values.out, { extra })}`);
  return failed ? 1 : 0;
}

/** Suite names of a run from its manifest, or null when it has none. */
async function suitesOfRun(dir: string): Promise<string[] | null> {
  try {
    const manifest = JSON.parse(
      await Deno.readTextFile(join(dir, "manifest.json")),
    );
    const suites = manifest?.config?.suites;
    return Array.isArray(suites)
      ? suites.map((s: { name: string }) => s.name)
      : null;
  } catch {
    return null;
  }
}

async function listNotebooks(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".ipynb") && !e.name.startsWith(".")) {
      out.push(join(dir, e.name));
    }
  }
  return out.sort();
}

if (import.meta.main) Deno.exit(await runCli(() => main(Deno.args)));
