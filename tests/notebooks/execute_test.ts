import assert from "node:assert/strict";
import { executeNotebook } from "../../lib/report/mod.ts";
import { executeOverview } from "./_overview_runs.ts";

// Ten executions in a row (to see how often a rare race loses an output)
// are a bench: `deno task bench` (tests/bench/repeat_bench.ts).
Deno.test("executeNotebook() finds every output of 00-overview", async () => {
  const { failures } = await executeOverview(1);
  assert.deepEqual(failures, []);
});

Deno.test("executeNotebook() keeps an output printed after its cell went idle, within the grace period only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "nb-late-" });
  const cell = (id: string, source: string) => ({
    cell_type: "code",
    id,
    metadata: {},
    source,
    outputs: [],
    execution_count: null,
  });
  try {
    // The first cell returns at once and prints 300 ms later; the second
    // waits long enough that the late line has certainly been sent.
    await Deno.writeTextFile(
      `${dir}/late.ipynb`,
      JSON.stringify({
        cells: [
          cell("a", 'setTimeout(() => console.log("late line"), 300);\n"now"'),
          cell("b", "await new Promise((r) => setTimeout(r, 800));\n1"),
        ],
        nbformat: 4,
        nbformat_minor: 5,
        metadata: {
          kernelspec: {
            name: "deno",
            display_name: "Deno",
            language: "typescript",
          },
        },
      }),
    );
    const outputsOfFirst = async (graceSeconds: number) => {
      const r = await executeNotebook(`${dir}/late.ipynb`, {
        outDir: `${dir}/out-${graceSeconds}`,
        graceSeconds,
      });
      const nb = JSON.parse(await Deno.readTextFile(r.ipynb));
      return { text: JSON.stringify(nb.cells[0].outputs), log: r.log };
    };
    const kept = await outputsOfFirst(1.5);
    assert.match(kept.text, /late line/);
    assert.match(kept.log, /late output in cell 0/);
    // Without the grace period the line is not the first cell's.
    const lost = await outputsOfFirst(0);
    assert.doesNotMatch(lost.text, /late line/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
