import assert from "node:assert/strict";
import {
  errorVerdict,
  formatValidFor,
  statusBeforeComparing,
  STATUSES,
} from "../../lib/judge/mod.ts";
import type { Completion, Extraction } from "../../lib/types.ts";

function completion(finishReason = "stop"): Completion {
  return {
    text: "12",
    reasoning: null,
    finishReason,
    usage: { promptTokens: 1, completionTokens: 1 },
    latencyMs: 0,
    attempts: 1,
  };
}

const FOUND: Extraction = {
  value: "12",
  rule: "bare",
  span: [0, 2],
  candidates: 1,
};
const NONE: Extraction = {
  value: null,
  rule: "none",
  span: null,
  candidates: 0,
};

Deno.test("STATUSES lists every status once, in ladder order", () => {
  assert.equal(new Set(STATUSES).size, STATUSES.length);
  assert.deepEqual(STATUSES, [
    "error",
    "unscored",
    "truncated",
    "parse_error",
    "wrong",
    "correct",
  ]);
});

Deno.test("formatValidFor() is true only for an answered correct, wrong or unscored row in the asked format", () => {
  const table: string[] = [];
  for (const status of STATUSES) {
    for (const extraction of [FOUND, NONE]) {
      for (const inFormat of [true, false]) {
        let asked = false;
        const got = formatValidFor({
          status,
          extraction,
          inFormat: () => {
            asked = true;
            return inFormat;
          },
        });
        if (got) table.push(status);
        const counts = ["correct", "wrong", "unscored"].includes(status) &&
          extraction.value !== null;
        assert.equal(asked, counts, `${status}: inFormat asked`);
        assert.equal(got, counts && inFormat, status);
      }
    }
  }
  assert.deepEqual(table, ["unscored", "wrong", "correct"]);
});

Deno.test("errorVerdict() scores 0 and is never format-valid", () => {
  assert.deepEqual(errorVerdict("HTTP 500"), {
    status: "error",
    score: 0,
    formatValid: false,
    explanation: "HTTP 500",
  });
});

Deno.test("statusBeforeComparing() takes the rungs in order: unscored, truncated, parse_error, then compare", () => {
  const cut = completion("length");
  assert.equal(statusBeforeComparing(cut, NONE, { keyed: false }), "unscored");
  assert.equal(statusBeforeComparing(cut, NONE), "truncated");
  assert.equal(
    statusBeforeComparing(cut, FOUND, { trusted: false }),
    "truncated",
  );
  assert.equal(statusBeforeComparing(cut, FOUND), null);
  assert.equal(statusBeforeComparing(completion(), NONE), "parse_error");
  assert.equal(
    statusBeforeComparing(completion(), FOUND, { trusted: false }),
    null,
  );
});
