/**
 * The sim's arithmetic skill: reads an arithmetic or word problem from the
 * prompt, computes it exactly and errs like a model.
 *
 * @module
 */
export * from "./skill.ts";
