/**
 * The sim's multiple-choice skill: reads a C-Eval style question and its
 * options, solves what it can, and guesses by profile otherwise.
 *
 * @module
 */
export * from "./skill.ts";
