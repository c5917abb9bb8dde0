/**
 * `deno task notebooks [--run <dir>] [--out <dir>] [--grace <s>] [notebook...]`
 *
 * Executes every notebook in `notebooks/` (or those named) headless with
 * nbclient and the Deno kernel, and writes the executed `.ipynb` and `.html`
 * under `outputs/notebooks/`, then an `index.html` there linking every
 * rendered page (and the run's `report.html` when there is one). An `--out`
 * folder of other files is refused unless `--force` (see `checkOutDir`).
 * `--run` passes a run folder to the notebooks
 * (`EVAL_RUN_DIR`) instead of having them run their own sweep. Exits 1 when
 * a cell errors or a cell that should show something shows nothing.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { checkRunDir, fsReason, isRunFolder } from "../store/run_dir.ts";
import {
  checkOutputPath,
  OutputPathError,
  realOutputPath,
} from "../store/output.ts";
// The notebook module alone: it does not load Polars (which needs --allow-ffi).
import { executeNotebook, runForNotebook } from "../report/notebook.ts";
import { writeIndexPage } from "../report/index_page.ts";
import { parseCli, runCli, usageError } from "../args.ts";

const USAGE =
  "Usage: deno task notebooks [--run <run-dir>] [--out <dir>] [--force] [--grace <seconds>] [notebooks/x.ipynb ...]";

/**
 * Marks a folder as this command's output folder: what is in it was
 * written here and may be written anew. Another folder's files are the
 * user's and need --force.
 */
const OUT_MARK = ".calc-bench-notebooks";

/**
 * Refuses an --out that would destroy what this command did not write,
 * through the store's one output guard (real paths: a symlink or `..`
 * does not hide what a folder is): a run folder or a folder inside one,
 * a path where an executed copy would replace a notebook being executed
 * (or any file it reads), or a folder of other files (without the mark
 * and without --force, when a file would be replaced).
 */
async function checkOutDir(
  out: string,
  notebooks: readonly string[],
  force: boolean,
): Promise<void> {
  const action = `Cannot write the executed notebooks to ${out}`;
  let info;
  try {
    info = await Deno.stat(out);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw usageError(
        `${action}: ${fsReason(error)}; give another --out`,
        USAGE,
      );
    }
    info = null; // made fresh
  }
  if (info !== null && !info.isDirectory) {
    throw usageError(
      `${action}: it is a file; give a folder with --out`,
      USAGE,
    );
  }
  const real = await realOutputPath(out);
  if (await isRunFolder(real)) {
    throw usageError(
      `${action}: it is a run folder${
        real === resolve(out) ? "" : ` (${out} resolves to ${real})`
      }; give another --out, such as outputs/notebooks`,
      USAGE,
    );
  }
  const targets = [
    ...notebooks.flatMap((p) => {
      const stem = basename(p).replace(/\.ipynb$/, "");
      return [`${stem}.ipynb`, `${stem}.html`];
    }),
    "index.html",
  ];
  for (const name of targets) {
    try {
      await checkOutputPath(join(real, name), {
        what: "an executed notebook",
        flag: "--out",
        force: true, // replacing is decided below, by the folder's mark
        reads: notebooks,
        makesFolder: true,
      });
    } catch (error) {
      if (!(error instanceof OutputPathError)) throw error;
      const reads = /which this command reads/.test(error.message);
      const source = notebooks.find((p) => basename(p) === name);
      throw usageError(
        reads
          ? `${action}: ${
            source ?? name
          } is there, and its executed copy would replace it (not even --force does that); give another --out, such as outputs/notebooks`
          : `${action}: ${error.message.replace(/^Cannot write [^:]*: /, "")}`,
        USAGE,
      );
    }
  }
  if (info === null || force || await exists(join(out, OUT_MARK))) return;
  const taken = [];
  for (const name of targets) {
    if (await exists(join(out, name))) taken.push(name);
  }
  if (taken.length > 0) {
    throw usageError(
      `${action}: it holds ${taken.slice(0, 3).join(", ")}${
        taken.length > 3 ? ` and ${taken.length - 3} more` : ""
      }, which this command did not write there (no ${OUT_MARK} mark); give another --out, or add --force to replace them`,
      USAGE,
    );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: {
      run: { type: "string" },
      out: { type: "string", default: "outputs/notebooks" },
      force: { type: "boolean", default: false },
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
      await checkRunDir(values.run, { flag: "--run" });
    } catch (error) {
      throw usageError((error as Error).message, USAGE);
    }
    runSuites = await suitesOfRun(values.run);
  }
  const notebooks = positionals.length
    ? positionals
    : await listNotebooks("notebooks");
  for (const path of positionals) {
    let file;
    try {
      file = await Deno.stat(path);
    } catch {
      file = null;
    }
    if (file === null || !file.isFile || !path.endsWith(".ipynb")) {
      throw usageError(
        `Cannot execute ${path}: ${
          file === null
            ? "no such file"
            : file.isFile
            ? "not a notebook (.ipynb)"
            : "it is a folder"
        }; give notebooks such as notebooks/01-arithmetic.ipynb, or none for every notebook in notebooks/`,
        USAGE,
      );
    }
  }
  await checkOutDir(values.out, notebooks, values.force);
  await Deno.mkdir(values.out, { recursive: true });
  await Deno.writeTextFile(
    join(values.out, OUT_MARK),
    "Executed notebooks written by deno task notebooks; it may write them anew.\n",
  );
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
