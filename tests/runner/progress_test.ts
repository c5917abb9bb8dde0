import assert from "node:assert/strict";
import {
  createReporter,
  formatProgressLine,
  type SweepProgress,
} from "../../lib/runner/mod.ts";

const at = (done: number, elapsedSeconds: number): SweepProgress => ({
  done,
  total: 100,
  skipped: 0,
  errors: 1,
  errorsByKind: { rate_limit: 1 },
  rowsPerSecond: done / elapsedSeconds,
  etaSeconds: (100 - done) / (done / elapsedSeconds),
  elapsedSeconds,
});

Deno.test("createReporter('lines') prints at most one line per 5 s and a final line", async () => {
  const lines: string[] = [];
  const reporter = await createReporter("lines", (line) => lines.push(line));
  reporter.update(at(10, 1));
  reporter.update(at(20, 2));
  reporter.update(at(60, 6.5));
  reporter.stop(at(100, 9));
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /^\[sweep\] 10\/100/);
  assert.match(lines[1]!, /^\[sweep\] 60\/100/);
  assert.match(lines[2]!, /^\[sweep\] done: 100\/100/);
  assert.match(lines[2]!, /rate_limit 1/);
});

Deno.test("formatProgressLine() counts resumed rows as stored and shows the ETA", () => {
  const line = formatProgressLine({ ...at(30, 3), skipped: 20 });
  assert.match(line, /^50\/100 \(50\.0%\) 10\.0 rows\/s, ETA 7s/);
});
