/**
 * The linear-algebra suite, everything it knows in one folder: the nine
 * tasks and their exact solvers (`tasks.ts`), LinAlg-Bench loading and key
 * verification (and the `verify-key` CLI), generated problems, templates
 * in three input formats, matrix/eigenvalue scoring, the forensic error
 * taxonomy with its model judge and validator, report sections and the
 * sim's linear-algebra skill (`sim/`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linalgSuite } from "./mod.ts";
 * assert.equal(linalgSuite.baseline, "paper");
 * assert.ok(linalgSuite.dims.some((d) => d.name === "size" && d.kind === "numeric"));
 * ```
 *
 * @module
 */
export * from "./suite.ts";
export * from "./tasks.ts";
export * from "./verify.ts";
export * from "./generate.ts";
export * from "./linalgbench.ts";
export * from "./templates.ts";
export * from "./score.ts";
export * from "./forensics.ts";
export * from "./forensics_judge.ts";
export * from "./report.ts";
export * from "./sections.ts";
export * from "./sim/mod.ts";
