/**
 * Executes `notebooks/00-overview.ipynb` headless a number of times and
 * checks each execution's outputs: every code cell not tagged `no-output`
 * shows something, the progress bar ends full, and every `expect-svg`
 * chart is in the HTML. Shared by the test (one execution) and the bench
 * (ten, to see how often a rare race would lose an output).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { executeNotebook, type NotebookJson } from "../../lib/report/mod.ts";

const root = join(import.meta.dirname!, "../..");
const overview = join(root, "notebooks/00-overview.ipynb");

const text = (s: string | string[] | undefined) =>
  Array.isArray(s) ? s.join("") : (s ?? "");

/** What {@linkcode executeOverview} saw over its executions. */
export interface OverviewRuns {
  /** One line per execution that missed an output (empty: all complete). */
  failures: string[];
  /** Late outputs the executor's grace period caught, over all runs. */
  late: number;
}

/** Executes the overview notebook `runs` times in a temporary folder. */
export async function executeOverview(runs: number): Promise<OverviewRuns> {
  const tmp = await Deno.makeTempDir({ prefix: "nb-exec-" });
  const source = JSON.parse(await Deno.readTextFile(overview)) as NotebookJson;
  const codeCells = source.cells.filter((c) => c.cell_type === "code");
  const expectSvg =
    codeCells.filter((c) => c.metadata?.tags?.includes("expect-svg")).length;
  assert.ok(
    expectSvg >= 5,
    "the overview notebook should tag its charts expect-svg",
  );
  let late = 0;
  const failures: string[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const r = await executeNotebook(overview, {
        outDir: join(tmp, `exec-${i}`),
        env: { EVAL_OUTPUT_DIR: join(tmp, `runs-${i}`), EVAL_COUNT: "2" },
      });
      late += (r.log.match(/late output/g) ?? []).length;
      const nb = JSON.parse(await Deno.readTextFile(r.ipynb)) as NotebookJson;
      const cells = nb.cells.filter((c) => c.cell_type === "code");
      const shown = cells.filter((c) => (c.outputs ?? []).length > 0).length;
      const silent = cells.filter((c) =>
        c.metadata?.tags?.includes("no-output")
      ).length;
      const progress = cells.some((c) =>
        (c.outputs ?? []).some((o) =>
          /<progress value="(\d+)" max="\1">/.test(text(o.data?.["text/html"]))
        )
      );
      const html = await Deno.readTextFile(r.html);
      const charts = (html.match(/class="eval-chart"/g) ?? []).length;
      if (
        r.problems.length || shown !== cells.length - silent || !progress ||
        charts < expectSvg
      ) {
        failures.push(
          `run ${i}: ${r.problems.join("; ")} shown=${shown}/${
            cells.length - silent
          } progress=${progress} charts=${charts}`,
        );
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
  return { failures, late };
}
