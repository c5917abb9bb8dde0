/**
 * `deno run lib/cli/check_notebooks.ts [notebook...]`: type-checks the code
 * cells of every notebook in `notebooks/` (Deno's checker does not read
 * .ipynb). Each notebook's cells become one temporary module, checked with
 * the repository's deno.json. Exits 1 on a type error.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
// The notebook module alone: it does not load Polars (which needs --allow-ffi).
import { notebookCode } from "../report/notebook.ts";

async function main(args: string[]): Promise<number> {
  const notebooks = args.length ? args : await list("notebooks");
  if (notebooks.length === 0) {
    console.log("No notebooks to check.");
    return 0;
  }
  const tmp = await Deno.makeTempDir({ prefix: "check-notebooks-" });
  try {
    const files: string[] = [];
    for (const path of notebooks) {
      const nb = JSON.parse(await Deno.readTextFile(path));
      const file = join(tmp, `${basename(path, ".ipynb")}.ts`);
      await Deno.writeTextFile(file, notebookCode(nb, path));
      files.push(file);
    }
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--config", resolve("deno.json"), ...files],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!out.success) {
      console.error(
        `Cannot type-check the notebooks: errors above (line numbers refer to the extracted cells; see the "// cell N" markers in ${tmp})`,
      );
      return 1;
    }
    console.log(
      `Checked ${notebooks.length} notebook(s): ${notebooks.join(", ")}`,
    );
    await Deno.remove(tmp, { recursive: true });
    return 0;
  } catch (error) {
    console.error(
      `Cannot type-check the notebooks: ${(error as Error).message}`,
    );
    return 1;
  }
}

async function list(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".ipynb") && !e.name.startsWith(".")) {
      out.push(join(dir, e.name));
    }
  }
  return out.sort();
}

if (import.meta.main) Deno.exit(await main(Deno.args));
