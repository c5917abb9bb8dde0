/**
 * The arithmetic suite's analysis, one concept per file: which rows are
 * generated arithmetic (`frame.ts`), accuracy by digits and against tokens
 * (`accuracy.ts`), breaking points (`breaking_points.ts`), error classes
 * (`error_classes.ts`), bare vs calculator (`calculator.ts`,
 * `calculator_control.ts`), the llmmath table and calibration
 * (`llmmath.ts`), and the report sections built from them.
 *
 * @module
 */
export * from "./frame.ts";
export * from "./accuracy.ts";
export * from "./breaking_points.ts";
export * from "./error_classes.ts";
export * from "./calculator.ts";
export * from "./calculator_control.ts";
export * from "./llmmath.ts";
export * from "./error_model.ts";
export * from "./sections.ts";
