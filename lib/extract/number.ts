/**
 * Number extraction from free-form model replies.
 *
 * @module
 */
import { formatRational } from "../math/rational.ts";
import { blankThinking, normalizeChars } from "./_normalize.ts";
import { type NumberToken, scanNumbers } from "./_scan.ts";

/** A number found in a reply. */
export interface ExtractedNumber {
  /** The value as a float (for display and tolerances). */
  value: number;
  /** The exact rational as written (`"117"`, `"-3/4"`, `"1/8"` for `0.125`). */
  exact?: string;
  /**
   * The rule that chose it: `"bare"` (the reply is just the number),
   * `"answer_marker"`, `"boxed"`, `"bold"` or `"last_number"`.
   */
  rule: string;
  /** Character span of the number in the original text. */
  span: [number, number];
  /**
   * Distinct values among the explicit answers (markers, boxes, bold); when
   * there are none, among all numbers in the reply.
   */
  candidates: number;
  /** How the chosen number was written (`"plain"`, `"fraction"`, `"latex_frac"`, `"scientific"`, `"percent"`, `"chinese"`). */
  kind: NumberToken["kind"];
}

const MARKERS: RegExp[] = [
  /\b(?:final\s+answer|the\s+answer|answer|final\s+result|the\s+result|result)\b\**\s*(?:is\s*:?|should\s+be|would\s+be|will\s+be|equals|:|=)\**/gi,
  /\bfinal\s+answer\b/gi,
  /####/g,
  /(?:最终答案|答案|结果|得数|最终结果)\s*(?:应该?是|是|为|:|：|=)/g,
];

const APPROX =
  /^\s*[,，]?\s*\(?\s*(?:≈|~|\\approx|approximately|about|roughly|or about|约|大约|約)\s*\$?\s*$/i;

const REFUSAL =
  /\b(?:I\s+can(?:not|'t|’t)|I\s+(?:am|'m|’m)\s+(?:sorry|unable|not\s+able)|unable\s+to\s+(?:compute|calculate|answer|help|provide)|as\s+an\s+AI)\b|抱歉|对不起|无法(?:计算|回答|提供|完成)|不能(?:计算|回答|提供)/i;

/** Ends of answer markers, in text order (overlapping matches merged). */
function markerEnds(text: string): number[] {
  const found: [number, number][] = [];
  for (const re of MARKERS) {
    for (const m of text.matchAll(re)) {
      found.push([m.index, m.index + m[0].length]);
    }
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const ends: number[] = [];
  let lastEnd = -1;
  for (const [start, end] of found) {
    if (start < lastEnd) {
      // Overlaps the previous marker ("Final answer:" vs "answer:"): keep the longer reach.
      if (end > lastEnd) ends[ends.length - 1] = lastEnd = end;
      continue;
    }
    ends.push(end);
    lastEnd = end;
  }
  return ends;
}

/** Spans of `\boxed{…}` / `\fbox{…}` contents, braces balanced. */
function boxedSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /\\(?:boxed|fbox)\s*\{/g;
  for (const m of text.matchAll(re)) {
    const open = m.index + m[0].length;
    let depth = 1, i = open;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}") depth--;
    }
    if (depth === 0) out.push([open, i - 1]);
  }
  return out;
}

/** The answer inside a region: after its last "=", else its first number. */
function pickInRegion(
  tokens: NumberToken[],
  text: string,
  from: number,
  to: number,
): NumberToken | undefined {
  const inside = tokens.filter((t) => t.start >= from && t.end <= to);
  const eq = text.lastIndexOf("=", to - 1);
  if (eq >= from) {
    const after = inside.find((t) => t.start > eq);
    if (after !== undefined) return after;
  }
  return inside[0];
}

/** After a marker: the first number, unless it starts an expression that an "=" on the same line resolves. */
function pickAfterMarker(
  tokens: NumberToken[],
  text: string,
  from: number,
): NumberToken | undefined {
  const idx = tokens.findIndex((t) => t.start >= from);
  const first = tokens[idx];
  if (first === undefined) return undefined;
  const next = tokens[idx + 1];
  const lineEnd = (() => {
    const nl = text.indexOf("\n", first.end);
    return nl < 0 ? text.length : nl;
  })();
  if (
    next !== undefined && next.start < lineEnd &&
    /^\s*(?:[-+×*x÷/·]|\\times|\\cdot|\\div)\s*$/.test(
      text.slice(first.end, next.start),
    )
  ) {
    const eq = text.lastIndexOf("=", lineEnd - 1);
    if (eq > first.end) {
      const after = tokens.find((t) => t.start > eq && t.end <= lineEnd);
      if (after !== undefined) return after;
    }
  }
  return first;
}

/** An integer written plainly, in canonical form (no sign on 0, no leading zeros). */
const BARE_INTEGER = /^(?:0|-?[1-9]\d{0,299})$/;

/**
 * Extracts the answer number from a model reply.
 *
 * Handles trailing punctuation (ASCII and Chinese), thousands separators
 * (`1,234`, `1{,}234`, `1\,234`, and `1 234 567` with spaces, thin spaces or
 * no-break spaces: a 1–3 digit head then groups of exactly three digits, so
 * `3 45` stays two numbers), currency symbols and units, Unicode minus and
 * fullwidth characters, fractions (`a/b`; `\frac`, `\dfrac`, `\tfrac` signed
 * in any form: `-\frac{3}{4}`, `\frac{-3}{4}`, `\frac{3}{-4}`,
 * `-\left(\frac{3}{4}\right)`), percentages as
 * written (`25%` gives 25), scientific notation (`1.5e3`,
 * `3.2 \times 10^{4}`), `\boxed{}`, markdown bold, answer markers
 * ("Answer:", "Final answer:", "####", "答案是", "答案：", "结果为"),
 * Chinese numerals up to 亿, and `<think>` blocks (ignored).
 *
 * In worked answers it takes the last explicit answer marker, else the last
 * boxed value, else the last bold number, else the final number — never the
 * first number of the working. Returns `null` for refusals (unless they
 * still state an answer) and for text without a number. Never throws.
 *
 * @param text The reply text.
 * @returns The number found, or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractNumber } from "./mod.ts";
 * assert.equal(extractNumber("12 × 12 = 144, so the answer is **144**.")?.value, 144);
 * assert.equal(extractNumber("答案是一百一十七。")?.value, 117);
 * assert.equal(extractNumber("\\boxed{-\\dfrac{3}{4}}")?.exact, "-3/4");
 * assert.equal(extractNumber("1\u2009234\u2009567")?.value, 1234567);
 * assert.equal(extractNumber("I'm sorry, I can't compute 12 × 12."), null);
 * ```
 */
export function extractNumber(text: string): ExtractedNumber | null {
  // The commonest reply, a bare integer, without the scan (about 15 µs of
  // a row's CPU at 0 ms latency, and the suites read a reply twice): the
  // result the scan gives (tests/extract/bare_number_test.ts checks it).
  if (BARE_INTEGER.test(text)) {
    return {
      value: Number(text),
      exact: text,
      rule: "bare",
      span: [0, text.length],
      candidates: 1,
      kind: "plain",
    };
  }
  try {
    const clean = blankThinking(normalizeChars(text));
    const all = scanNumbers(clean);
    const arabic = all.filter((t) => t.kind !== "chinese");
    // Chinese numerals count only where no Arabic numbers are written.
    const tokens = arabic.length > 0 ? arabic : all;
    if (tokens.length === 0) return null;

    const explicit: { token: NumberToken; rule: string }[] = [];
    const ends = markerEnds(clean);
    const boxes = boxedSpans(clean);
    for (const [from, to] of boxes) {
      const t = pickInRegion(tokens, clean, from, to);
      if (t !== undefined) explicit.push({ token: t, rule: "boxed" });
    }
    for (const m of clean.matchAll(/\*\*([^*\n]{1,40})\*\*/g)) {
      const from = m.index + 2, to = from + (m[1]?.length ?? 0);
      const inside = tokens.filter((t) => t.start >= from && t.end <= to);
      const only = inside[0];
      const outside = only === undefined
        ? ""
        : clean.slice(from, only.start) + clean.slice(only.end, to);
      // Bold counts as an answer only when it holds just the number.
      if (inside.length === 1 && /^[\s$¥€£.,:;!。，：；！]*$/.test(outside)) {
        explicit.push({ token: inside[0] as NumberToken, rule: "bold" });
      }
    }
    let chosen: { token: NumberToken; rule: string } | undefined;
    for (const end of ends) {
      const t = pickAfterMarker(tokens, clean, end);
      if (t !== undefined) {
        chosen = { token: t, rule: "answer_marker" };
        explicit.push(chosen);
      }
    }
    if (chosen === undefined) {
      const boxed = explicit.filter((e) => e.rule === "boxed");
      const bold = explicit.filter((e) => e.rule === "bold");
      chosen = boxed[boxed.length - 1] ?? bold[bold.length - 1];
    }
    if (chosen === undefined && REFUSAL.test(clean)) return null;
    if (chosen === undefined) {
      // A decimal approximation of an exact fraction ("19/12 ≈ 1.58") is
      // not the answer; the fraction is.
      let index = tokens.length - 1;
      const prev = tokens[index - 1], final = tokens[index] as NumberToken;
      if (
        prev !== undefined &&
        (prev.kind === "fraction" || prev.kind === "latex_frac") &&
        APPROX.test(clean.slice(prev.end, final.start))
      ) index--;
      const last = tokens[index] as NumberToken;
      // "Bare": nothing but the number, maybe in $…$ or backticks, maybe a full stop.
      const strip = (x: string) =>
        x.replace(/^[\s$`]+/, "").replace(/[\s$`.。!！]+$/, "");
      const bare = tokens.length === 1 &&
        strip(clean) === strip(clean.slice(last.start, last.end));
      chosen = { token: last, rule: bare ? "bare" : "last_number" };
    }
    const pool = explicit.length > 0 ? explicit.map((e) => e.token) : tokens;
    const distinct = new Set(pool.map((t) => formatRational(t.value)));
    const { token } = chosen;
    return {
      value: Number(token.value.valueOf()),
      exact: formatRational(token.value),
      rule: chosen.rule,
      span: [token.start, token.end],
      candidates: distinct.size,
      kind: token.kind,
    };
  } catch {
    return null;
  }
}
