/**
 * The identity of the run a sweep's loaded entries make (see
 * `lib/store/identity.ts` for what an identity is and how two compare).
 *
 * @module
 */
import { canonicalJson } from "../canonical.ts";
import type { SweepConfig } from "../config/schema.ts";
import { rowConfig } from "../config/row_config.ts";
import {
  buildIdentity,
  identityDifferences,
  type IdentityInput,
  type IdentitySuite,
  type RunIdentity,
} from "../store/mod.ts";
import { sha256 } from "@noble/hashes/sha2";
import type { SuiteEntry } from "./work.ts";

/** What {@linkcode runIdentity} is computed from. */
export interface RunIdentityOptions {
  /** The sweep config (its row-deciding fields count). */
  config: SweepConfig;
  /** The loaded suite entries, in config order. */
  entries: readonly SuiteEntry[];
  /** The input files the entries were loaded from. */
  inputs: readonly IdentityInput[];
  /** The run's `--limit`, if any. */
  limit?: number | undefined;
}

/**
 * The identity of a run of these entries: the config's row-deciding
 * fields and `--limit`, every input file by content, and per suite entry
 * the suite's version, its templates and a hash of its questions (so a
 * generator that changed its output is seen even when its version was not
 * raised).
 *
 * @param options The config, entries, inputs and `--limit`.
 * @returns The identity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runIdentity } from "./identity.ts";
 * import { loadEntries } from "./entries.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import { SUITES } from "../suites/mod.ts";
 * const config = SweepConfigSchema.parse({
 *   models: [{ name: "m", provider: "sim" }],
 *   suites: [{ name: "arithmetic", params: { digits: [2], count: 3 } }],
 * });
 * const { entries, close } = await loadEntries(config, { suites: SUITES, baseDir: "." });
 * await close();
 * const a = runIdentity({ config, entries, inputs: [] });
 * assert.equal(a.suites[0]?.entry, "suites[0]");
 * assert.equal(a.suites[0]?.questions, entries[0]?.questions.length);
 * const b = runIdentity({ config: { ...config, seed: 7 }, entries, inputs: [] });
 * assert.notEqual(a.hash, b.hash);
 * ```
 */
export function runIdentity(options: RunIdentityOptions): RunIdentity {
  const { config, entries, inputs, limit } = options;
  const suites: IdentitySuite[] = entries.map((entry, i) => {
    // What a row depends on (the payload follows from these), hashed in
    // chunks: a large grid is never one string.
    const hash = sha256.create();
    const encoder = new TextEncoder();
    let chunk = "";
    for (const q of entry.questions) {
      chunk += canonicalJson([q.id, q.text, q.answer, q.dims]) + "\n";
      if (chunk.length > 1 << 16) {
        hash.update(encoder.encode(chunk));
        chunk = "";
      }
    }
    hash.update(encoder.encode(chunk));
    let hex = "";
    for (const b of hash.digest()) hex += b.toString(16).padStart(2, "0");
    return {
      entry: `suites[${i}]`,
      suite: entry.suite.name,
      version: entry.suite.version ?? "0",
      templates: entry.templates.map(([id]) => id),
      questions: entry.questions.length,
      questionsSha256: hex,
    };
  });
  return buildIdentity({ rowConfig: rowConfig(config), limit, inputs, suites });
}

/** What {@linkcode identityMismatch} compares and how it words it. */
export interface IdentityMismatchOptions {
  /** What the command would do, for the message ("resume outputs/x"). */
  action: string;
  /** The identity the run recorded (absent: a run made before identities). */
  recorded: RunIdentity | undefined;
  /** The identity of what the command would run now. */
  now: RunIdentity;
  /** What to do instead, after "restore what changed, or". @default "start a new run: deno task sweep <config.json>" */
  instead?: string;
}

/**
 * The message refusing to add to a run whose inputs, config or generators
 * are no longer the ones it recorded, or null when they are the same (or
 * the run recorded no identity: nothing to compare).
 *
 * @param options The action, the recorded and the current identity.
 * @returns "Cannot <action>: ..." naming every difference, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { identityMismatch } from "./identity.ts";
 * import { buildIdentity } from "../store/mod.ts";
 * const file = (sha256: string) => ({ name: "q.jsonl", sha256, bytes: 1, encoding: "utf-8" });
 * const a = buildIdentity({ rowConfig: {}, inputs: [file("a".repeat(64))], suites: [] });
 * const b = buildIdentity({ rowConfig: {}, inputs: [file("b".repeat(64))], suites: [] });
 * assert.equal(identityMismatch({ action: "resume r", recorded: a, now: a }), null);
 * assert.match(identityMismatch({ action: "resume r", recorded: a, now: b })!, /^Cannot resume r: .*q\.jsonl changed/);
 * ```
 */
export function identityMismatch(
  options: IdentityMismatchOptions,
): string | null {
  const {
    action,
    recorded,
    now,
    instead = "start a new run: deno task sweep <config.json>",
  } = options;
  if (recorded === undefined) return null;
  const differs = identityDifferences(recorded, now);
  if (differs.length === 0) return null;
  return `Cannot ${action}: the run was made from other inputs than it would be now (${
    differs.slice(0, 4).join("; ")
  }${
    differs.length > 4 ? `; and ${differs.length - 4} more` : ""
  }), and one run never mixes rows of two; restore what changed, or ${instead}`;
}
