import assert from "node:assert/strict";
import { createSimBackend, SimProvider } from "../../lib/providers/mod.ts";
import { simChat, simSkillFor } from "../../lib/providers/sim/mod.ts";
import { loadSuites } from "../../lib/suites/registry.ts";
import type { Prompt } from "../../lib/types.ts";

const SKILLS = (await loadSuites(["arithmetic", "ceval"])).flatMap((s) =>
  s.simSkills ?? []
);

function prompt(content: string): Prompt {
  return {
    templateId: "direct",
    messages: [{ role: "user", content }],
    params: { temperature: 0, max_tokens: 64, seed: 3 },
  };
}

Deno.test("simSkillFor() names the skill simChat answers with, or null when its reply is the non-answer", () => {
  const ask = (content: string) => ({
    model: "sim-average",
    messages: [{ role: "user" as const, content }],
    seed: 1,
  });
  assert.equal(
    simSkillFor(ask("What is 48 + 37? Output only the number."), SKILLS),
    "arithmetic",
  );
  const unread = ask("Name a colour of the rainbow.");
  assert.equal(simSkillFor(unread, SKILLS), null);
  const reply = simChat(unread, SKILLS).response as {
    choices: { message: { content: string } }[];
  };
  assert.match(reply.choices[0]!.message.content, /rephrase the question/);
});

Deno.test("simSkillFor() leaves the reply as it was: simChat gives the same bytes before and after", () => {
  const request = {
    model: "sim-weak",
    messages: [{ role: "user" as const, content: "What is 4821 × 9377?" }],
    seed: 9,
  };
  const before = JSON.stringify(simChat(request, SKILLS));
  simSkillFor(request, SKILLS);
  assert.equal(JSON.stringify(simChat(request, SKILLS)), before);
});

Deno.test("SimProvider.lacksSkill() is true only when no skill reads the prompt and the profile exists", () => {
  const backend = createSimBackend(SKILLS);
  const sim = new SimProvider({ name: "s", model: "sim-strong", backend });
  assert.equal(sim.lacksSkill(prompt("What is 12 + 30?")), false);
  assert.equal(sim.lacksSkill(prompt("Name a colour of the rainbow.")), true);
  // An unknown profile answers with an error row, not a non-answer.
  const unknown = new SimProvider({ name: "x", model: "sim-nope", backend });
  assert.equal(unknown.lacksSkill(prompt("Name a colour.")), false);
  // A backend that cannot tell never says a skill is missing.
  const blind = new SimProvider({
    name: "b",
    model: "sim-strong",
    backend: { simChat: backend.simChat, simModelList: backend.simModelList },
  });
  assert.equal(blind.lacksSkill(prompt("Name a colour.")), false);
});
