/**
 * `deno task bench [--quick]`: runs every benchmark and prints one table of
 * measured numbers, ratios (measured in this same run), targets and
 * PASS/MISS. Not a timed test: ratios, not absolute times, are what count.
 *
 * Adding a benchmark: put a `tests/bench/<name>_bench.ts` file exporting an
 * async function whose name starts with `bench`. Called without arguments,
 * it may return `BenchRow[]` (see `sweep_bench.ts`: name, value, unit,
 * ratio, target, pass), which go in the table, or print its own lines.
 *
 * @module
 */
import {
  type BenchRow,
  benchSweepMemory,
  benchSweepThroughput,
} from "./sweep_bench.ts";

const quick = Deno.args.includes("--quick");

function isBenchRow(x: unknown): x is BenchRow {
  return typeof x === "object" && x !== null && "name" in x && "value" in x &&
    typeof (x as BenchRow).value === "number";
}

function table(rows: BenchRow[]): string {
  const cells = [
    ["benchmark", "measured", "ratio", "target", "result"],
    ...rows.map((r) => [
      r.name,
      `${r.value.toFixed(r.value >= 100 ? 0 : 2)} ${r.unit}`,
      r.ratio === undefined ? "" : r.ratio.toFixed(3),
      r.target ?? "",
      r.pass === undefined ? "" : r.pass ? "PASS" : "MISS",
    ]),
  ];
  const widths = cells[0]!.map((_, i) =>
    Math.max(...cells.map((c) => c[i]!.length))
  );
  return cells.map((c) =>
    c.map((cell, i) =>
      i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)
    ).join("  ")
  )
    .join("\n");
}

const rows: BenchRow[] = [];
const run = async (label: string, fn: () => Promise<unknown>) => {
  console.error(`[bench] ${label}...`);
  try {
    const out = await fn();
    if (Array.isArray(out)) {
      for (const item of out) {
        if (isBenchRow(item)) rows.push(item);
        else console.log(`${label}: ${JSON.stringify(item)}`);
      }
    }
  } catch (error) {
    console.error(
      `[bench] ${label} failed: ${
        error instanceof Error ? error.message : error
      }`,
    );
  }
};

await run(
  "sweep throughput",
  () => benchSweepThroughput(quick ? { sizes: [2_000], rounds: 1 } : {}),
);
await run(
  "sweep memory",
  () => benchSweepMemory(quick ? [1_000, 10_000] : undefined),
);

// Every other *_bench.ts file: call its exported bench* functions.
const here = new URL(".", import.meta.url);
const names: string[] = [];
for await (const entry of Deno.readDir(here)) {
  if (
    entry.isFile && entry.name.endsWith("_bench.ts") &&
    entry.name !== "sweep_bench.ts"
  ) names.push(entry.name);
}
for (const name of names.sort()) {
  const mod = await import(new URL(name, here).href) as Record<string, unknown>;
  for (const [symbol, value] of Object.entries(mod)) {
    if (symbol.startsWith("bench") && typeof value === "function") {
      await run(`${name} ${symbol}`, () => (value as () => Promise<unknown>)());
    }
  }
}

console.log("");
console.log(table(rows));
const missed = rows.filter((r) => r.pass === false).length;
console.log(
  `\n${
    rows.filter((r) => r.pass === true).length
  } targets met, ${missed} missed (ratios measured in this run; load from other processes lowers them)`,
);
