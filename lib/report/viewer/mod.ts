/**
 * The report's sample viewer: a list of samples beside a detail pane,
 * with filters (suite, model, template, status and each suite's dims),
 * text or regex search, sort, counts, keyboard navigation, a view of the
 * questions where models, templates or runs disagree, and its state in
 * the URL fragment; one self-contained fragment of the report page.
 * Suites add what they know of a row through their `detail` hook.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { viewerSections } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ key: ["m|q|t|0"], suite: ["s"], model: ["m"], status: ["correct"] });
 * const [section] = await viewerSections(frame, []);
 * assert.match(section!.parts[0]!, /id="sample-detail"/);
 * ```
 *
 * @module
 */
export { viewerRows } from "./rows.ts";
export type { ViewerRows, ViewerRowsOptions } from "./rows.ts";
export type {
  PayloadCell,
  PayloadDim,
  PayloadSuite,
  ViewerPayload,
} from "./payload.ts";
export { viewerHtml } from "./html.ts";
export { flipsHtml, viewerSections } from "./sections.ts";
export { flipsText } from "./flips_text.ts";
export type {
  DetailFields,
  DetailPart,
  DetailTable,
  DetailText,
  DetailValue,
  SampleDetail,
  SampleRow,
  ViewerSuite,
} from "./types.ts";
