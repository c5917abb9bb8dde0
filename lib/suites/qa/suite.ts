/**
 * The question-and-answer suite: the user's own questions from a CSV,
 * JSONL, JSON or parquet file, with configurable columns, an answer type
 * (a number as written, an option letter, an exact string, a pattern) and
 * every other column as a dim to break results down by.
 *
 * @module
 */
import { resolve } from "node:path";
import { ACCURACY, FORMAT_VALID_RATE } from "../../judge/metric.ts";
import type { Suite } from "../types.ts";
import { formatOf, QaInputError, readDataset } from "./dataset.ts";
import { extractQa, scoreQa } from "./judge.ts";
import { parseQaParams, validateQaParams } from "./params.ts";
import { type QaPayload, qaQuestions } from "./questions.ts";
import { QA_TEMPLATES } from "./templates.ts";
import { qaSkill } from "./sim.ts";

/** Reads a dataset file, naming the `dataset` param when it cannot. */
async function readFile(path: string, shown: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? `no such file (${path})`
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder, not a file"
      : String((error as Error).message).replace(/\s*\(os error \d+\).*$/s, "");
    throw new QaInputError(
      `Cannot load the dataset ${shown}: ${why}; check "dataset" in the suite's params (relative to the config file)`,
    );
  }
}

/** Whether the first `n` bytes are UTF-8, an unfinished last character allowed. */
function utf8Prefix(bytes: Uint8Array, n: number): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, n), {
      stream: true,
    });
    return true;
  } catch {
    return false;
  }
}

/** Strict UTF-8 (a BOM accepted): bad bytes are named, never read as mojibake. */
function decode(bytes: Uint8Array, shown: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // The longest prefix that is UTF-8 (binary search: a prefix that fails
    // makes every longer one fail) ends where the first bad byte starts.
    let ok = 0, bad = bytes.length;
    while (bad - ok > 1) {
      const mid = (ok + bad) >> 1;
      if (utf8Prefix(bytes, mid)) ok = mid;
      else bad = mid;
    }
    const at = utf8Prefix(bytes, bytes.length) ? bytes.length : ok;
    const line = bytes.subarray(0, at).filter((b) => b === 10).length + 1;
    throw new QaInputError(
      `Cannot load the dataset ${shown}: line ${line} (byte ${at}) is not UTF-8; save the file as UTF-8 (e.g. iconv -f GB18030 -t UTF-8 ${shown} > ${shown}.utf8)`,
    );
  }
}

/** The question-and-answer suite: your own questions. */
export const qaSuite: Suite<QaPayload> = {
  name: "qa",
  version: "1",
  description:
    "Your own questions from a CSV, JSONL, JSON or parquet file: numbers as written, option letters, exact strings or patterns; every other column a dim.",
  validateParams: validateQaParams,
  async questions({ params, baseDir }) {
    const p = parseQaParams(params);
    const path = resolve(baseDir, p.dataset);
    const format = p.format ?? formatOf(p.dataset);
    if (format === null) {
      throw new QaInputError(
        `Cannot load the dataset ${p.dataset}: its extension is not .csv, .jsonl, .json or .parquet; rename it or set "format"`,
      );
    }
    const records = await readDataset({
      shown: p.dataset,
      format,
      readText: async () => decode(await readFile(path, p.dataset), p.dataset),
      readBytes: () => readFile(path, p.dataset),
    });
    return qaQuestions(records, p, p.dataset);
  },
  templates: QA_TEMPLATES,
  defaultTemplates: ["direct"],
  baseline: "direct",
  dims: [],
  metrics: [ACCURACY, FORMAT_VALID_RATE],
  extract: extractQa,
  score: scoreQa,
  simSkills: [qaSkill],
};
