/**
 * Issue 45, item 3: over 50 seeded adaptive sweeps of the sim's
 * multiplication, each profile's 95% interval holds its true crossing
 * (the sim's calibrated curve, `_curves.ts`) at least 90% of the time.
 * The requests against the full grid are in `tests/bench/adaptive_bench.ts`.
 */
import assert from "node:assert/strict";
import { PROFILES, sweptDesigns } from "./_sweeps.ts";

Deno.test("adaptive sweeps: over 50 seeded runs per profile the 95% interval holds the sim's true crossing at least 45 times", async () => {
  const designs = await sweptDesigns(50);
  assert.equal(designs.length, 150);
  assert.ok(designs.every((d) => d.stopped !== null));
  for (const profile of PROFILES) {
    const own = designs.filter((d) => d.model === profile);
    const covered = own.filter((d) => d.covered).length;
    assert.ok(
      covered >= 45,
      `${profile}: ${covered}/50 hold ${own[0]!.truth.toFixed(2)}; missed ${
        own.filter((d) => !d.covered).map((d) =>
          `${d.mean.toFixed(2)} [${d.low}, ${d.high}]`
        ).join(", ")
      }`,
    );
  }
});
