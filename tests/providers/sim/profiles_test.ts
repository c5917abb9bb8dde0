import assert from "node:assert/strict";
import {
  getSimProfile,
  SIM_PROFILES,
  SimModelError,
} from "../../../lib/providers/sim/mod.ts";

const MODULE_DOC = Deno.readTextFileSync(
  new URL("../../../lib/providers/sim/mod.ts", import.meta.url),
);

/** "0.005" → "0.5%", "0" → "0". */
function percent(x: number): string {
  return x === 0 ? "0" : `${Number((x * 100).toPrecision(3))}%`;
}

Deno.test("SIM_PROFILES matches the sim_profiles table of the module doc", () => {
  const rows = MODULE_DOC.split("\n").filter((l) => /^ \* \| `sim-/.test(l));
  assert.equal(rows.length, SIM_PROFILES.length);
  for (const p of SIM_PROFILES) {
    const row = rows.find((r) => r.includes(`\`${p.name}\``));
    assert.ok(row, `${p.name} missing from the table`);
    const cells = row.split("|").map((c) => c.trim());
    assert.equal(cells[3], percent(p.slipRate), `${p.name} slips`);
    assert.equal(cells[4], percent(p.refusalRate), `${p.name} refusals`);
    assert.equal(cells[5], percent(p.compliance), `${p.name} compliance`);
    assert.equal(
      cells[9],
      `${p.baseLatencyMs} ms + ${p.msPerToken} ms/tok`,
      `${p.name} latency`,
    );
    assert.equal(cells[8], p.toolUse ? "yes" : "no", `${p.name} tools`);
  }
});

Deno.test("getSimProfile() returns each profile by name and rejects others", () => {
  for (const p of SIM_PROFILES) assert.equal(getSimProfile(p.name), p);
  assert.throws(() => getSimProfile("sim-STRONG"), SimModelError);
});
