/**
 * Code extraction of Python replies: the run's one parsing process (what a
 * sweep uses) against a process started per reply (what `extractCode`
 * does without a reader), on the same replies in the same run: each bank
 * problem's Python reference followed by a usage example the cut drops.
 * Also the longest the event loop waited during the run's extractions (a
 * timer every millisecond), which is what other rows' requests wait.
 *
 * Run alone: `deno run -A tests/bench/extract_bench.ts`.
 *
 * @module
 */
import { loadBank } from "../../lib/suites/code/bank/mod.ts";
import { extractCode } from "../../lib/suites/code/extract.ts";
import { pythonReader } from "../../lib/suites/code/_extract_deps_py.ts";
import type { BenchRow } from "./sweep_bench.ts";

/** Measures both paths over the bank's Python references. */
export async function benchPythonExtraction(): Promise<BenchRow[]> {
  const F = "`".repeat(3);
  const replies = (await loadBank()).map((p) => ({
    entry: p.entry.python,
    text:
      `${F}python\n${p.reference.python}\n\nprint(${p.entry.python}())\n${F}`,
  }));
  const time = async (python?: ReturnType<typeof pythonReader>) => {
    let lag = 0, last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      lag = Math.max(lag, now - last);
      last = now;
    }, 1);
    const t0 = performance.now();
    let dropped = 0;
    for (const r of replies) {
      const x = await extractCode(r.text, {
        language: "python",
        entry: r.entry,
        ...(python === undefined ? {} : { python }),
      });
      if (x.reason.includes("dropped top-level example code")) dropped++;
    }
    const ms = (performance.now() - t0) / replies.length;
    clearInterval(tick);
    return { ms, lag, dropped };
  };
  const perReply = await time();
  const reader = pythonReader();
  const run = await time(reader);
  await reader.close();
  if (run.dropped !== perReply.dropped) {
    throw new Error(
      `the two paths dropped examples from ${run.dropped} and ${perReply.dropped} replies`,
    );
  }
  console.log(
    `python extraction: ${replies.length} replies, examples dropped from ${run.dropped}; ` +
      `${perReply.ms.toFixed(2)} ms/reply with a process per reply, ${
        run.ms.toFixed(2)
      } ms/reply with the run's reader; longest event-loop wait ${
        run.lag.toFixed(1)
      } ms`,
  );
  const ratio = run.ms / perReply.ms;
  return [
    {
      name: "python extraction, run's reader",
      value: run.ms,
      unit: "ms/reply",
      ratio,
      target: "<= 0.1 of a process per reply",
      pass: ratio <= 0.1,
    },
    {
      name: "python extraction, longest event-loop wait",
      value: run.lag,
      unit: "ms",
      target: "<= 50 ms",
      pass: run.lag <= 50,
    },
  ];
}

if (import.meta.main) console.table(await benchPythonExtraction());
