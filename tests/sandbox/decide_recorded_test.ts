/**
 * `decide` on recorded measurements: the points `measureComplexity` took
 * for every known-class program on native Python and JavaScript (one run,
 * 2026-12-05), with the decision the method made on them then. A change of
 * the method that changes any decision fails here; the fixture is
 * re-recorded only with a measured reason (see `docs/complexity.md`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { decide, fitAll } from "../../lib/sandbox/_fit.ts";
import type {
  ComplexityClass,
  ComplexityPoint,
} from "../../lib/sandbox/types.ts";

interface Recorded {
  name: string;
  backend: "native" | "deno" | "pyodide";
  points: ComplexityPoint[];
  class: ComplexityClass;
  ambiguous: boolean;
  reason: string;
}

const recorded: Recorded[] = JSON.parse(
  await Deno.readTextFile(
    new URL("./fixtures/complexity_decisions.json", import.meta.url),
  ),
);

Deno.test("decide() makes the recorded decisions on recorded points", () => {
  assert.ok(recorded.length >= 150);
  const changed: string[] = [];
  for (const r of recorded) {
    const options = r.backend === "deno"
      ? { topBySlope: false, jitStep: true }
      : {};
    const d = decide(r.points, fitAll(r.points), options);
    if (
      d.class !== r.class || d.ambiguous !== r.ambiguous ||
      d.reason !== r.reason
    ) {
      changed.push(
        `${r.name} (${r.backend}): ${r.class} -> ${d.class} (${d.reason})`,
      );
    }
  }
  assert.deepEqual(changed, []);
});
