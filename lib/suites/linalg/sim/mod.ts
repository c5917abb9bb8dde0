/**
 * The sim's linear-algebra skill: reads the matrices of a LinAlg-Bench
 * style prompt, solves exactly, and errs, abandons or invents tool output
 * the way models do on larger matrices.
 *
 * @module
 */
export * from "./skill.ts";
