/**
 * Batch output lines (OpenAI's and vLLM `run-batch`'s format) into result
 * rows, through the runner's `finishRow`, the function the online lane
 * uses. Private to `lib/batch`.
 *
 * @module
 */
import { join } from "node:path";
import type { ModelConfig } from "../config/schema.ts";
import {
  createProvider,
  errorCompletion,
  errorKindOfStatus,
  type Provider,
  toCompletion,
} from "../providers/mod.ts";
import {
  buildPrompt,
  finishRow,
  scoreContexts,
  shardOfKey,
} from "../runner/mod.ts";
import {
  type BadResultLine,
  readResults,
  RESULTS_FILE,
  ResultsWriter,
  rewriteResults,
  tidyResults,
} from "../store/mod.ts";
import type { Completion } from "../types.ts";
import { BatchInputError, type BatchPlan } from "./_plan.ts";
import { type BatchRun, saveManifest } from "./_run.ts";

/** One answered (or failed) request of an output or error file. */
export interface OutputLine {
  /** 1-based line number in its file. */
  line: number;
  customId: string;
  completion: Completion;
}

/** A batch answer carries no timing: the row's latency is 0, one attempt. */
const META = { latencyMs: 0, attempts: 1 };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The Completion of one output line's `response` / `error`. */
function completionOf(value: Record<string, unknown>): Completion | string {
  const { response, error } = value;
  if (isRecord(error)) {
    const code = String(error.code ?? "error");
    const kind = code === "batch_expired"
      ? "timeout"
      : code === "batch_cancelled"
      ? "aborted"
      : "unknown";
    return errorCompletion(META, {
      kind,
      message: `Cannot complete batch request: ${code}: ${
        String(error.message ?? "")
      }`,
    });
  }
  if (!isRecord(response)) return "it has neither a response nor an error";
  const status = response.status_code;
  if (typeof status !== "number") return "its response has no status_code";
  if (status !== 200) {
    const body = response.body;
    const inner = isRecord(body) && isRecord(body.error) ? body.error : null;
    return errorCompletion(META, {
      kind: errorKindOfStatus(status),
      message: `Cannot complete batch request: ${status} ${
        String(inner?.message ?? "")
      }`.trimEnd(),
      status,
    });
  }
  return toCompletion(response.body, META);
}

/** Most lines named in one message. */
const SHOWN = 5;

/** `line 3 (custom_id "k"), … and 7 more`, for the first few lines of a list. */
function namedLines(
  lines: readonly { line: number; customId: string; note?: string }[],
): string {
  const head = lines.slice(0, SHOWN).map((l) =>
    `line ${l.line} (custom_id "${l.customId}"${l.note ?? ""})`
  ).join(", ");
  return lines.length > SHOWN
    ? `${head} and ${lines.length - SHOWN} more`
    : head;
}

/**
 * Reads an output (or error) file's text into lines of the plan; refuses
 * it whole — nothing is written — at the first line that is not an output
 * line, or after reading it all when some custom_ids are not keys of the
 * plan: those of other shards of the plan's sweep and those of no shard
 * are each counted and the first few named with their line numbers.
 *
 * @param text The file's text.
 * @param source The file, for messages.
 * @param plan The plan the lines must belong to.
 * @param target What the plan is of, for messages (`"config"`, `"run <dir>"`).
 * @throws {BatchInputError} naming the file, lines and custom_ids.
 */
export function parseOutput(
  text: string,
  source: string,
  plan: BatchPlan,
  target: string,
): OutputLine[] {
  const out: OutputLine[] = [];
  const seen = new Map<string, number>();
  const unknown: { line: number; customId: string }[] = [];
  const foreign: { line: number; customId: string; note: string }[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    const line = i + 1;
    const fail = (why: string): never => {
      throw new BatchInputError(
        `Cannot read ${source}: line ${line} ${why}; nothing was imported. Fix or remove that line (or give the output file of this ${target})`,
      );
    };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      fail("is not valid JSON (a corrupted or truncated line)");
    }
    if (!isRecord(value) || typeof value.custom_id !== "string") {
      fail("is not a batch output line (no custom_id)");
    }
    const record = value as Record<string, unknown>;
    const customId = record.custom_id as string;
    const previous = seen.get(customId);
    if (previous !== undefined) {
      fail(`repeats custom_id "${customId}" of line ${previous}`);
    }
    seen.set(customId, line);
    if (!plan.items.has(customId)) {
      if (plan.shard !== undefined && plan.otherShards.has(customId)) {
        const count = plan.shard.count;
        foreign.push({
          line,
          customId,
          note: `, shard ${shardOfKey(customId, count)}/${count}`,
        });
      } else unknown.push({ line, customId });
      continue;
    }
    const completion = completionOf(record);
    if (typeof completion === "string") fail(completion);
    out.push({ line, customId, completion: completion as Completion });
  }
  if (unknown.length > 0 || foreign.length > 0) {
    const parts: string[] = [];
    if (unknown.length > 0) {
      parts.push(
        `${unknown.length} line(s) are not requests of this ${target} (an output file from another run or config?): ${
          namedLines(unknown)
        }`,
      );
    }
    const shard = plan.shard;
    let todo = `Remove those lines, or give the output file of this ${target}`;
    if (foreign.length > 0 && shard !== undefined) {
      const which = `${shard.index}/${shard.count}`;
      parts.push(
        `${foreign.length} line(s) are requests of other shards of its sweep, not of shard ${which} that this ${target} holds: ${
          namedLines(foreign)
        }`,
      );
      const rest =
        `each shard's run only its own lines (deno task batch export <config.json> --shard ${which} --out <file> writes this shard's requests), or import the whole file into a new run with deno task batch import <config.json> <output.jsonl>`;
      todo = unknown.length > 0
        ? `Remove the lines that are not requests, and give ${rest}`
        : `Give ${rest}`;
    }
    throw new BatchInputError(
      `Cannot read ${source}: ${
        parts.join("; ")
      }; nothing was imported. ${todo}`,
    );
  }
  return out;
}

/** What {@linkcode storeRows} did. */
export interface StoreCounts {
  /** Rows appended. */
  written: number;
  /** Of them, rows that replaced an error row of the same key. */
  replaced: number;
  /** Lines whose key was already stored (kept as is). */
  skipped: number;
  /** Error rows appended. */
  errors: number;
  /** Lines of the run's file that were not rows, set aside (what was said). */
  setAside: string | null;
}

/**
 * Key → whether its stored row is an error row; lines that are not rows
 * are set aside by the store's rule (what was done is returned).
 */
async function storedKeys(
  path: string,
): Promise<{ stored: Map<string, boolean>; setAside: string | null }> {
  const stored = new Map<string, boolean>();
  const bad: BadResultLine[] = [];
  const onBadLine = (line: number, text: string) => bad.push({ line, text });
  for await (
    const row of readResults(path, { onBadLine, onTornLine: onBadLine })
  ) {
    stored.set(row.key, row.status === "error");
  }
  const setAside = await tidyResults(path, { bad, when: new Date() });
  return { stored, setAside };
}

/**
 * Turns output lines into rows and appends them to the run's
 * `results.jsonl`. Idempotent: a key stored with an answer is skipped; an
 * error row is replaced by an answer (a resubmitted line), and otherwise
 * kept. Updates the manifest's counts and sessions.
 */
export async function storeRows(
  run: BatchRun,
  lines: readonly OutputLine[],
): Promise<StoreCounts> {
  const startedAt = new Date().toISOString();
  const path = join(run.runDir, RESULTS_FILE);
  const { stored, setAside } = await storedKeys(path);
  const counts: StoreCounts = {
    written: 0,
    replaced: 0,
    skipped: 0,
    errors: 0,
    setAside,
  };
  const take: OutputLine[] = [];
  const replace = new Set<string>();
  for (const line of lines) {
    const wasError = stored.get(line.customId);
    const isError = line.completion.error !== undefined;
    if (wasError === false || (wasError === true && isError)) {
      counts.skipped++;
      continue;
    }
    if (wasError === true) replace.add(line.customId);
    take.push(line);
  }
  if (replace.size > 0) {
    const kept: string[] = [];
    for (const text of (await Deno.readTextFile(path)).split("\n")) {
      if (text === "") continue;
      let key: string | null = null;
      try {
        key = (JSON.parse(text) as { key?: string }).key ?? null;
      } catch { /* a line that is not a row stays for resume to set aside */ }
      if (key === null || !replace.has(key)) kept.push(text);
    }
    await rewriteResults(path, kept);
  }
  const providers = new Map<string, Provider>();
  const simSkills = run.suites.flatMap((s) => s.simSkills ?? []);
  const providerOf = (model: ModelConfig): Provider => {
    const id = JSON.stringify(model);
    let provider = providers.get(id);
    if (provider === undefined) {
      provider = createProvider(model, run.plan.config, {
        env: run.env,
        simSkills,
      });
      providers.set(id, provider);
    }
    return provider;
  };
  const contextOf = scoreContexts(providerOf, {
    signal: new AbortController().signal,
  });
  const writer = await ResultsWriter.open(path);
  let written: Promise<void> = Promise.resolve();
  try {
    for (const line of take) {
      const planned = run.plan.items.get(line.customId)!;
      const row = await finishRow({
        runName: run.manifest.run,
        model: planned.model,
        item: planned.item,
        // The messages the batch request carried (see `requestLine`).
        messages: buildPrompt(planned.item, {
          model: planned.model,
          config: run.plan.config,
        })
          .messages,
        completion: line.completion,
        context: contextOf(planned.item.entry),
        redact: run.redact,
      });
      // Not awaited row by row: the writer joins rows into one write
      // within 10 ms, and awaiting each would cost those 10 ms per row.
      written = writer.append(row);
      if (counts.written % 1000 === 999) await written;
      stored.set(row.key, row.status === "error");
      counts.written++;
      if (replace.has(row.key)) counts.replaced++;
      if (row.status === "error") counts.errors++;
    }
    await written;
  } finally {
    await writer.close();
    await Promise.all(
      [...providers.values()].map((p) => p.close?.().catch(() => {})),
    );
    await run.plan.close();
  }
  const endedAt = new Date().toISOString();
  const manifest = run.manifest;
  manifest.sessions.push({
    startedAt,
    endedAt,
    written: counts.written,
    skipped: counts.skipped,
    interrupted: false,
  });
  manifest.endedAt = endedAt;
  manifest.counts = {
    rows: stored.size,
    errors: [...stored.values()].filter(Boolean).length,
    cached: manifest.counts.cached,
  };
  await saveManifest(run);
  return counts;
}

/** Keys of the plan that have no answered row (missing or error rows). */
export async function missingKeys(run: BatchRun): Promise<string[]> {
  // read only: a torn tail is skipped here and set aside by the next store
  const answered = new Set<string>();
  for await (
    const row of readResults(join(run.runDir, RESULTS_FILE), {
      onBadLine: () => {},
    })
  ) {
    if (row.status !== "error") answered.add(row.key);
  }
  return [...run.plan.items.keys()].filter((key) => !answered.has(key));
}
