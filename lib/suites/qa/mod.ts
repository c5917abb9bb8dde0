/**
 * The question-and-answer suite: your own questions from a file, judged by
 * their answer type (see `suite.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qaSuite } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/q.csv`, "question,answer,category\nWhat is 2 + 2?,4,sums\n");
 * const [q] = await qaSuite.questions({ seed: 0, params: { dataset: "q.csv" }, baseDir: dir });
 * assert.deepEqual(q?.dims, { category: "sums", answer_type: "number" });
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export * from "./suite.ts";
export * from "./params.ts";
export * from "./dataset.ts";
export * from "./questions.ts";
export * from "./templates.ts";
export * from "./judge.ts";
