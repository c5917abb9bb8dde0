/**
 * The sanand0/llmmath preset: its seven n×n-digit products (asked five
 * times each) and the statistics its study reports.
 *
 * @module
 */
export * from "./questions.ts";
export * from "./stats.ts";
