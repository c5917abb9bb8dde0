/**
 * What a run *is*: its identity. Two runs are the same run when they plan
 * the same rows from the same inputs — the config without its
 * execution-only fields, the content of every file it read, the version of
 * each suite's generator and the questions that came out. The manifest
 * records the identity; resume, merge, batch import and a report of
 * several runs compare identities, so that a changed dataset, an edited
 * config or a row of another run is named and never mixed in, and the
 * same run given twice is one run.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2";
import { canonicalJson } from "../canonical.ts";

/** One file a run read, by content. */
export interface IdentityInput {
  /** The file, relative to the config's folder when inside it, else absolute. */
  name: string;
  /** SHA-256 of its bytes, hex. */
  sha256: string;
  /** Its size in bytes. */
  bytes: number;
  /** How its text was decoded (`utf-8`, `gb18030`, ...; `binary` when not text). */
  encoding: string;
}

/** One suite entry of a run, as its identity sees it. */
export interface IdentitySuite {
  /** Where it is in the config: `suites[0]`. */
  entry: string;
  /** The suite's name. */
  suite: string;
  /** The version of the suite's question generator and scoring. */
  version: string;
  /** The template ids its rows use. */
  templates: string[];
  /** Questions planned (after `--limit`). */
  questions: number;
  /** SHA-256 of the questions' canonical JSON: ids, texts, keys and dims. */
  questionsSha256: string;
}

/** A run's identity, as recorded in its manifest. */
export interface RunIdentity {
  /** SHA-256 over everything below: equal hashes, the same run's plan. */
  hash: string;
  /** SHA-256 of the row-deciding config (execution-only fields left out) and `--limit`. */
  config: string;
  /** Every input file the run read, sorted by name. */
  inputs: IdentityInput[];
  /** Each suite entry, in config order. */
  suites: IdentitySuite[];
}

/**
 * Hex SHA-256 of a text (as UTF-8) or bytes.
 *
 * @param data The text or bytes.
 * @returns 64 hex digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./identity.ts";
 * assert.equal(sha256Hex("abc").slice(0, 8), "ba7816bf");
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  const bytes = typeof data === "string"
    ? new TextEncoder().encode(data)
    : data;
  let out = "";
  for (const b of sha256(bytes)) out += b.toString(16).padStart(2, "0");
  return out;
}

/** What {@linkcode buildIdentity} is made of. */
export interface IdentityParts {
  /** The config fields that decide the rows (`rowConfig`). */
  rowConfig: Record<string, unknown>;
  /** The run's `--limit`, if any. */
  limit?: number | undefined;
  /** The input files read. */
  inputs: readonly IdentityInput[];
  /** The suite entries with their question hashes. */
  suites: readonly IdentitySuite[];
}

/**
 * Builds a run identity from its parts; the hash covers all of them (an
 * input's encoding and size aside: its content hash says it all).
 *
 * @param parts The row config, `--limit`, inputs and suite entries.
 * @returns The identity with its hash.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildIdentity } from "./identity.ts";
 * const a = buildIdentity({ rowConfig: { seed: 1 }, inputs: [], suites: [] });
 * const b = buildIdentity({ rowConfig: { seed: 2 }, inputs: [], suites: [] });
 * assert.notEqual(a.hash, b.hash);
 * assert.equal(a.hash, buildIdentity({ rowConfig: { seed: 1 }, inputs: [], suites: [] }).hash);
 * ```
 */
export function buildIdentity(parts: IdentityParts): RunIdentity {
  const config = sha256Hex(
    canonicalJson({ config: parts.rowConfig, limit: parts.limit ?? null }),
  );
  const inputs = [...parts.inputs].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  const suites = parts.suites.map((s) => ({ ...s }));
  const hash = sha256Hex(canonicalJson({
    config,
    inputs: inputs.map((i) => [i.name, i.sha256]),
    suites,
  }));
  return { hash, config, inputs, suites };
}

/** The first hex digits of a hash, for messages. */
function short(hash: string): string {
  return hash.slice(0, 12);
}

/**
 * Where two identities differ, in words: each input file that changed,
 * appeared or went (with its old and new hash), each suite entry whose
 * generator version, templates or questions differ, and the config. Empty
 * when they are the same run's.
 *
 * @param recorded The identity a run recorded.
 * @param now The identity of what would be run now.
 * @returns One clause per difference.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildIdentity, identityDifferences } from "./identity.ts";
 * const file = (sha256: string) => ({ name: "q.jsonl", sha256, bytes: 10, encoding: "utf-8" });
 * const a = buildIdentity({ rowConfig: {}, inputs: [file("aa".repeat(32))], suites: [] });
 * const b = buildIdentity({ rowConfig: {}, inputs: [file("bb".repeat(32))], suites: [] });
 * assert.deepEqual(identityDifferences(a, a), []);
 * assert.match(identityDifferences(a, b)[0]!, /^the file q\.jsonl changed \(sha256 aaaaaaaaaaaa… → bbbbbbbbbbbb…/);
 * ```
 */
export function identityDifferences(
  recorded: RunIdentity,
  now: RunIdentity,
): string[] {
  if (recorded.hash === now.hash) return [];
  const out: string[] = [];
  if (recorded.config !== now.config) {
    out.push("the config's row-deciding fields or --limit");
  }
  const before = new Map(recorded.inputs.map((i) => [i.name, i]));
  const after = new Map(now.inputs.map((i) => [i.name, i]));
  for (const [name, old] of before) {
    const cur = after.get(name);
    if (cur === undefined) {
      out.push(`the file ${name} is no longer read`);
    } else if (cur.sha256 !== old.sha256) {
      out.push(
        `the file ${name} changed (sha256 ${short(old.sha256)}… → ${
          short(cur.sha256)
        }…, ${old.bytes} → ${cur.bytes} bytes)`,
      );
    }
  }
  for (const name of after.keys()) {
    if (!before.has(name)) out.push(`the file ${name} is read now and was not`);
  }
  const suites = Math.max(recorded.suites.length, now.suites.length);
  for (let i = 0; i < suites; i++) {
    const a = recorded.suites[i], b = now.suites[i];
    if (a === undefined || b === undefined) {
      out.push(
        `${(a ?? b)!.entry} (${(a ?? b)!.suite}) is ${a ? "gone" : "new"}`,
      );
      continue;
    }
    const where = `${b.entry} (${b.suite})`;
    if (a.version !== b.version) {
      out.push(
        `${where}: the suite's generator changed (version ${a.version} → ${b.version})`,
      );
    } else if (canonicalJson(a.templates) !== canonicalJson(b.templates)) {
      out.push(
        `${where}: templates ${a.templates.join(", ")} → ${
          b.templates.join(", ")
        }`,
      );
    } else if (a.questionsSha256 !== b.questionsSha256) {
      out.push(
        `${where}: its questions differ (${a.questions} → ${b.questions} questions, sha256 ${
          short(a.questionsSha256)
        }… → ${short(b.questionsSha256)}…)`,
      );
    }
  }
  if (out.length === 0) out.push("the identity's hash");
  return out;
}

/**
 * Reads a run identity from a parsed manifest, or null when the manifest
 * records none (a run made before identities were recorded) or a
 * malformed one.
 *
 * @param manifest A parsed `manifest.json`.
 * @returns Its identity, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildIdentity, identityOf } from "./identity.ts";
 * const identity = buildIdentity({ rowConfig: {}, inputs: [], suites: [] });
 * assert.equal(identityOf({ identity })?.hash, identity.hash);
 * assert.equal(identityOf({}), null);
 * ```
 */
export function identityOf(manifest: unknown): RunIdentity | null {
  const id = (manifest as { identity?: unknown } | null)?.identity as
    | Partial<RunIdentity>
    | undefined;
  if (
    typeof id !== "object" || id === null || typeof id.hash !== "string" ||
    typeof id.config !== "string" || !Array.isArray(id.inputs) ||
    !Array.isArray(id.suites)
  ) return null;
  return id as RunIdentity;
}
