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
import {
  decide,
  type Decision,
  fitAll,
  regimeStep,
} from "../../lib/sandbox/_fit.ts";
import {
  type ComplexityMethod,
  methodFor,
} from "../../lib/sandbox/complexity_method.ts";
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
    const method = methodFor(r.backend);
    const d = decide(r.points, fitAll(r.points, method), method);
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

/**
 * Fields of `fitAll` and `decide` that some recorded decision depends on
 * (the lone-step fields are shown below on a built series).
 */
const DECISION_FIELDS = [
  "fitMinN",
  "fitMinLarge",
  "dropOneIn",
  "minSizes",
  "maxError",
  "slack",
  "slackAbs",
  "flat",
  "lowerShare",
  "lowerMinSizes",
  "topSlope",
  "topMinSpan",
] as const satisfies readonly (keyof ComplexityMethod)[];

Deno.test("decide() reads each threshold of the method: changing one changes a recorded decision", () => {
  const key = (d: Decision) => `${d.class} ${d.ambiguous} ${d.reason}`;
  const unread: string[] = [];
  for (const field of DECISION_FIELDS) {
    const changes = (factor: number) =>
      recorded.some((r) => {
        const base = methodFor(r.backend);
        const value = base[field] * factor;
        const method = {
          ...base,
          [field]: Number.isInteger(base[field]) ? Math.round(value) : value,
        };
        return key(decide(r.points, fitAll(r.points, method), method)) !==
          `${r.class} ${r.ambiguous} ${r.reason}`;
      });
    // (a slack under 1 would leave no class within it: not a method)
    if (!changes(0.8) && !changes(1.5)) unread.push(field);
  }
  assert.deepEqual(unread, []);
});

Deno.test("regimeStep() reads the lone-step thresholds of the method", () => {
  // linear, 3x slower per element from n = 2,048 on: one lone step
  const points = Array.from({ length: 12 }, (_, i) => 8 * 2 ** i).map((
    n,
  ) => ({ n, ms: (n >= 2048 ? 3 : 1) * 1e-5 * n }));
  const method = methodFor("deno");
  assert.equal(regimeStep(points, method)?.n, 2048);
  for (
    const change of [
      { regimeSide: 5 },
      { regimeMinSlope: 3 },
      { regimeRise: 3 },
      { topSlope: 0.9 },
    ]
  ) {
    assert.equal(regimeStep(points, { ...method, ...change }), null);
  }
});
