/**
 * A provider factory that loads only the provider kinds a sweep uses: a
 * sweep of the sim never imports the `openai` client (about 0.15 s of
 * start-up), and a sweep of endpoints never loads the sim.
 *
 * @module
 */
import { importLazily } from "../lazy.ts";
import {
  type CreateProvider,
  providerFactory,
  type ProviderKinds,
} from "./_factory.ts";

export type { CreateProvider } from "./_factory.ts";

type SimModule = typeof import("./sim.ts");
type BackendModule = typeof import("./_sim_backend.ts");
type OpenAIModule = typeof import("./openai.ts");

/**
 * Loads the provider classes of the given kinds and returns a factory with
 * the same contract as `createProvider` for models of those kinds.
 *
 * @param kinds The `provider` of each model the factory will be asked for.
 * @returns The factory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadProviderFactory } from "./load.ts";
 * const create = await loadProviderFactory(["sim"]);
 * const sweep = { retries: 0, timeoutMs: 1000 };
 * const model = { name: "s", provider: "sim", model: "sim-strong", params: {} } as
 *   Parameters<typeof create>[0];
 * assert.equal(create(model, sweep).name, "s");
 * const endpoint = { ...model, provider: "openai", baseURL: "http://127.0.0.1:1/v1" } as
 *   Parameters<typeof create>[0];
 * assert.throws(() => create(endpoint, sweep), /"openai" provider was not loaded/);
 * ```
 */
export async function loadProviderFactory(
  kinds: Iterable<"sim" | "openai">,
): Promise<CreateProvider> {
  const wanted = new Set(kinds);
  const loaded: ProviderKinds = {};
  const base = import.meta.url;
  await Promise.all([
    wanted.has("sim")
      ? Promise.all([
        importLazily<SimModule>("./sim.ts", base),
        importLazily<BackendModule>("./_sim_backend.ts", base),
      ]).then(([sim, backend]) => {
        loaded.sim = {
          SimProvider: sim.SimProvider,
          createSimBackend: backend.createSimBackend,
        };
      })
      : null,
    wanted.has("openai")
      ? importLazily<OpenAIModule>("./openai.ts", base).then((openai) => {
        loaded.openai = { OpenAIProvider: openai.OpenAIProvider };
      })
      : null,
  ]);
  return providerFactory(loaded);
}

type ProfilesModule = typeof import("./sim/profiles.ts");

/**
 * The sim models of a config whose profile does not exist, each as a
 * config problem naming the field and the known profiles; loads the sim's
 * profile list only when a model is a sim. A misspelt profile would
 * otherwise run to the end as error rows.
 *
 * @param models The config's models.
 * @param path How the config names the i-th model. @default `models[i]`
 * @returns One problem per unknown profile (`models[i].model: ...`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { simProfileProblems } from "./load.ts";
 * const [problem] = await simProfileProblems([{ name: "sim-waek", provider: "sim" }]);
 * assert.match(problem!, /^models\[0\]\.name: unknown sim profile "sim-waek"; known profiles: sim-strong, .*sim-weak/);
 * assert.deepEqual(await simProfileProblems([{ name: "x", provider: "sim", model: "sim-weak" }]), []);
 * ```
 */
export async function simProfileProblems(
  models: readonly {
    name: string;
    provider: string;
    model?: string | undefined;
  }[],
  path: (index: number) => string = (i) => `models[${i}]`,
): Promise<string[]> {
  if (!models.some((m) => m.provider === "sim")) return [];
  const { SIM_PROFILES } = await importLazily<ProfilesModule>(
    "./sim/profiles.ts",
    import.meta.url,
  );
  const known = SIM_PROFILES.map((p) => p.name);
  const problems: string[] = [];
  models.forEach((m, i) => {
    if (m.provider !== "sim") return;
    const id = m.model ?? m.name;
    if (known.includes(id)) return;
    problems.push(
      `${path(i)}.${
        m.model === undefined ? "name" : "model"
      }: unknown sim profile "${id}"; known profiles: ${known.join(", ")}${
        m.model === undefined
          ? ` (or keep the name and set "model" to one of them)`
          : ""
      }`,
    );
  });
  return problems;
}
