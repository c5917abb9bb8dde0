/**
 * The question-and-answer suite: the user's own questions from a CSV,
 * JSONL, JSON or parquet file, with configurable columns, an answer type
 * (a number as written, an option letter, an exact string, a pattern) and
 * every other column as a dim to break results down by.
 *
 * @module
 */
import { resolve } from "node:path";
import { EncodingInputError } from "../../inputs/mod.ts";
import { ACCURACY, FORMAT_VALID_RATE } from "../../judge/metric.ts";
import type { Suite } from "../types.ts";
import { defineSuite } from "../define.ts";
import { formatOf, QaInputError, readDataset } from "./dataset.ts";
import { extractQa, scoreQa } from "./judge.ts";
import { QaParamsSchema } from "./params.ts";
import { type QaPayload, qaQuestions } from "./questions.ts";
import { QA_TEMPLATES } from "./templates.ts";
import { qaSkill } from "./sim.ts";

/** A file-system error of the dataset, naming the `dataset` param. */
function unreadable(error: unknown, path: string, shown: string): never {
  if (error instanceof EncodingInputError) throw error;
  const why = error instanceof Deno.errors.NotFound
    ? `no such file (${path})`
    : error instanceof Deno.errors.IsADirectory
    ? "it is a folder, not a file"
    : String((error as Error).message).replace(/\s*\(os error \d+\).*$/s, "");
  throw new QaInputError(
    `Cannot load the dataset ${shown}: ${why}; check "dataset" in the suite's params (relative to the config file)`,
  );
}

/** The question-and-answer suite: your own questions. */
export const qaSuite: Suite<QaPayload> = defineSuite({
  name: "qa",
  version: "1",
  description:
    "Your own questions from a CSV, JSONL, JSON or parquet file: numbers as written, option letters, exact strings or patterns; every other column a dim.",
  params: QaParamsSchema,
  async questions({ params: p, baseDir, inputs }) {
    const path = resolve(baseDir, p.dataset);
    const format = p.format ?? formatOf(p.dataset);
    if (format === null) {
      throw new QaInputError(
        `Cannot load the dataset ${p.dataset}: its extension is not .csv, .jsonl, .json or .parquet; rename it or set "format"`,
      );
    }
    // Read strictly and recorded by content (the run's identity); a CSV
    // in GBK/GB18030, as Chinese datasets often are, is decoded.
    const records = await readDataset({
      shown: p.dataset,
      format,
      readText: () =>
        inputs.readText(path, {
          legacyChinese: format === "csv",
          what: "the dataset",
          shown: p.dataset,
        }).catch((e) => unreadable(e, path, p.dataset)),
      readBytes: () =>
        inputs.readBytes(path).catch((e) => unreadable(e, path, p.dataset)),
    });
    return qaQuestions(records, { params: p, shown: p.dataset });
  },
  templates: QA_TEMPLATES,
  defaultTemplates: ["direct"],
  metrics: [ACCURACY, FORMAT_VALID_RATE],
  extract: ({ question, completion }) => extractQa(question, completion),
  score: (judged) => scoreQa(judged),
  sim: qaSkill,
});
