import { basename, dirname, extname, join, resolve } from "node:path";
import {
  fileURLToPath as fromFileUrl,
  pathToFileURL as toFileUrl,
} from "node:url";

/** The parts of an .ipynb file this module reads. */
export interface NotebookJson {
  /** `eval.suites`: the suites a notebook analyses (see {@linkcode runForNotebook}). */
  metadata?: { eval?: { suites?: string[] } };
  /** The notebook's cells with the fields read here. */
  cells: {
    cell_type: string;
    source: string | string[];
    metadata?: { tags?: string[] };
    outputs?: {
      output_type: string;
      name?: string;
      text?: string | string[];
      data?: Record<string, string | string[]>;
      ename?: string;
      evalue?: string;
    }[];
  }[];
}

const text = (s: string | string[] | undefined) =>
  Array.isArray(s) ? s.join("") : (s ?? "");

/**
 * What is wrong with an executed notebook: cells that raised, cells that
 * show nothing (every code cell must show something unless tagged
 * `no-output`), and cells tagged `expect-svg` whose HTML output holds no
 * `<svg>` with drawn marks.
 *
 * @param nb The executed notebook (parsed JSON).
 * @returns One message per problem; empty when all is well.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookProblems } from "./mod.ts";
 *
 * const problems = notebookProblems({ cells: [
 *   { cell_type: "code", source: "1", outputs: [] },
 *   { cell_type: "code", source: "x", outputs: [{ output_type: "error", ename: "ReferenceError", evalue: "x is not defined" }] },
 *   { cell_type: "code", source: "import 'a'", metadata: { tags: ["no-output"] }, outputs: [] },
 * ] });
 * assert.deepEqual(problems, [
 *   "cell 1 shows nothing: 1",
 *   "cell 2 failed: ReferenceError: x is not defined",
 * ]);
 * ```
 */
export function notebookProblems(nb: NotebookJson): string[] {
  const problems: string[] = [];
  nb.cells.forEach((cell, i) => {
    if (cell.cell_type !== "code") return;
    const n = i + 1;
    const tags = cell.metadata?.tags ?? [];
    const outputs = cell.outputs ?? [];
    const first = text(cell.source).split("\n")[0]?.slice(0, 60) ?? "";
    for (const o of outputs) {
      if (o.output_type === "error") {
        problems.push(`cell ${n} failed: ${o.ename}: ${o.evalue}`);
      }
    }
    if (outputs.length === 0 && !tags.includes("no-output")) {
      problems.push(`cell ${n} shows nothing: ${first}`);
    }
    if (tags.includes("expect-svg")) {
      const html = outputs.map((o) => text(o.data?.["text/html"])).join("");
      if (!/<svg[\s\S]*<(circle|path|rect|line|text)[\s>]/.test(html)) {
        problems.push(`cell ${n} shows no drawn chart: ${first}`);
      }
    }
  });
  return problems;
}

/**
 * The code cells of a notebook as one TypeScript module, for `deno check`
 * (which does not read .ipynb). Relative imports are rewritten to absolute
 * file URLs so the module type-checks from any folder.
 *
 * @param nb The notebook.
 * @param notebookPath Where the notebook lives (relative imports resolve from its folder).
 * @returns TypeScript source; each cell starts with a `// cell N` comment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookCode } from "./mod.ts";
 *
 * const ts = notebookCode({ cells: [
 *   { cell_type: "markdown", source: "# x" },
 *   { cell_type: "code", source: ['import { f } from "../lib/x.ts";\n', "f()"] },
 * ] }, "/repo/notebooks/a.ipynb");
 * assert.match(ts, /\/\/ cell 2\nimport \{ f \} from "file:\/\/\/repo\/lib\/x\.ts";\nf\(\)/);
 * ```
 */
export function notebookCode(nb: NotebookJson, notebookPath: string): string {
  const dir = dirname(resolve(notebookPath));
  const parts = nb.cells.map((cell, i) => {
    if (cell.cell_type !== "code") return null;
    const src = text(cell.source).replace(
      /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(["'])(\.\.?\/[^"']+)\2/g,
      (_m, pre: string, q: string, spec: string) =>
        `${pre}${q}${toFileUrl(resolve(dir, spec)).href}${q}`,
    );
    return `// cell ${i + 1}\n${src}`;
  }).filter((p): p is string => p !== null);
  return `${parts.join("\n\n")}\n\nexport {};\n`;
}

/** Options for {@linkcode executeNotebook}. */
export interface ExecuteNotebookOptions {
  /** Folder for the executed `.ipynb` and the `.html`. */
  outDir: string;
  /** Extra environment for the kernel (notebook parameters). */
  env?: Record<string, string>;
  /** Seconds to keep listening for a cell's late output after the kernel is idle. @default {0.5} */
  graceSeconds?: number;
  /** Seconds a cell may run. @default {600} */
  timeoutSeconds?: number;
  /** The Python with nbclient and nbconvert. @default $EVAL_PYTHON or /usr/bin/python3 */
  python?: string;
}

/** What {@linkcode executeNotebook} produced. */
export interface ExecutedNotebook {
  /** The executed notebook as .ipynb JSON text. */
  ipynb: string;
  /** The executed notebook rendered as a standalone HTML page. */
  html: string;
  /** From {@linkcode notebookProblems}, plus a kernel failure if any. */
  problems: string[];
  /** Executor stderr (kernel warnings, late-output notes). */
  log: string;
}

/**
 * Executes a notebook headless with Jupyter's nbclient (Debian's
 * python3-nbclient) and the Deno kernel, waiting a grace period after each
 * cell for late outputs, then exports HTML with nbconvert. The kernel runs
 * in the notebook's folder.
 *
 * @param path The `.ipynb` to run.
 * @param options Output folder, environment, grace period, timeout, python.
 * @returns Paths of the outputs and the problems found.
 * @throws {Error} "Cannot execute notebooks: ..." when Python, nbclient or the Deno kernel is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { executeNotebook } from "./mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const cell = (source: string) => ({ cell_type: "code", id: "c1", metadata: {}, source, outputs: [], execution_count: null });
 * await Deno.writeTextFile(`${dir}/n.ipynb`, JSON.stringify({
 *   cells: [cell("6 * 7")], nbformat: 4, nbformat_minor: 5,
 *   metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
 * }));
 * const r = await executeNotebook(`${dir}/n.ipynb`, { outDir: `${dir}/out` });
 * assert.deepEqual(r.problems, []);
 * assert.match(await Deno.readTextFile(r.html), /42/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function executeNotebook(
  path: string,
  options: ExecuteNotebookOptions,
): Promise<ExecutedNotebook> {
  const {
    outDir,
    env = {},
    graceSeconds = 0.5,
    timeoutSeconds = 600,
    python = Deno.env.get("EVAL_PYTHON") ?? "/usr/bin/python3",
  } = options;
  await ensureJupyter(python);
  await Deno.mkdir(outDir, { recursive: true });
  const stem = basename(path, extname(path));
  const ipynb = join(outDir, `${stem}.ipynb`);
  const html = join(outDir, `${stem}.html`);
  const script = fromFileUrl(
    new URL("./_execute_notebook.py", import.meta.url),
  );
  const out = await new Deno.Command(python, {
    args: [
      script,
      path,
      ipynb,
      html,
      "--grace",
      String(graceSeconds),
      "--timeout",
      String(timeoutSeconds),
      "--cwd",
      dirname(resolve(path)),
    ],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr);
  const problems: string[] = [];
  if (!out.success) {
    problems.push(
      `Cannot execute ${path}: ${
        log.trim().split("\n").at(-1) ?? "executor failed"
      }`,
    );
  }
  try {
    problems.push(
      ...notebookProblems(JSON.parse(await Deno.readTextFile(ipynb))),
    );
  } catch (error) {
    problems.push(
      `Cannot read the executed ${ipynb}: ${(error as Error).message}`,
    );
  }
  return { ipynb, html, problems, log };
}

async function ensureJupyter(python: string): Promise<void> {
  const probe =
    "import nbclient, nbconvert\nfrom jupyter_client.kernelspec import find_kernel_specs\nimport sys\nsys.exit(0 if 'deno' in find_kernel_specs() else 3)";
  let code: number;
  try {
    code = (await new Deno.Command(python, {
      args: ["-c", probe],
      stdout: "null",
      stderr: "null",
    }).output()).code;
  } catch {
    code = -1;
  }
  if (code === 0) return;
  const what = code === 3
    ? "the Deno Jupyter kernel is not registered (run `deno jupyter --install`)"
    : `${python} lacks nbclient/nbconvert (apt-get install jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel)`;
  throw new Error(
    `Cannot execute notebooks: ${what}; tests/setup.sh installs all of it as root`,
  );
}

/**
 * Whether a notebook should analyse a given run: true unless the notebook
 * declares the suites it analyses (`metadata.eval.suites`) and the run
 * (its manifest's `config.suites`) holds none of them. `deno task notebooks
 * --run <dir>` uses it so that a suite notebook runs its own small sweep
 * instead of failing on a run of another suite.
 *
 * @param nb The notebook.
 * @param runSuites Suites of the run, or null when unknown (then: true).
 * @returns Whether to pass the run to the notebook.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runForNotebook } from "./mod.ts";
 *
 * const ceval = { cells: [], metadata: { eval: { suites: ["ceval"] } } };
 * assert.equal(runForNotebook(ceval, ["arithmetic"]), false);
 * assert.equal(runForNotebook(ceval, ["ceval", "arithmetic"]), true);
 * assert.equal(runForNotebook({ cells: [] }, ["arithmetic"]), true);
 * assert.equal(runForNotebook(ceval, null), true);
 * ```
 */
export function runForNotebook(
  nb: NotebookJson,
  runSuites: readonly string[] | null,
): boolean {
  const wanted = nb.metadata?.eval?.suites;
  if (!wanted || wanted.length === 0 || runSuites === null) return true;
  return wanted.some((s) => runSuites.includes(s));
}
