/**
 * The arithmetic suite's analysis: accuracy by digits, breaking points,
 * error classes, tokens, bare vs calculator, llmmath calibration, and the
 * report sections built from them.
 *
 * @module
 */
export * from "./report.ts";
export * from "./calculator_control.ts";
export * from "./sections.ts";
