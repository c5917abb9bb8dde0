/**
 * The C-Eval suite, everything it knows in one folder: the 52-subject
 * table, loaders for three data layouts, the official prompt modes,
 * choice scoring, report sections and the sim's multiple-choice skill
 * (`sim/`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CEVAL_SUBJECTS, cevalSuite } from "./mod.ts";
 * assert.equal(CEVAL_SUBJECTS.length, 52);
 * assert.equal(cevalSuite.baseline, "few_shot");
 * ```
 *
 * @module
 */
export * from "./suite.ts";
export * from "./subjects.ts";
export * from "./load.ts";
export * from "./templates.ts";
export * from "./score.ts";
export * from "./report.ts";
export * from "./sections.ts";
export * from "./sim/mod.ts";
