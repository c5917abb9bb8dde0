/**
 * Number extraction from free-form model replies.
 *
 * @module
 */
import { formatRational } from "../math/rational.ts";
import { blankThinking, normalizeChars } from "./_normalize.ts";
import { type NumberKind, type NumberToken, scanNumbers } from "./_scan.ts";
import type { FoundAnswer } from "./suite_extract.ts";
import {
  type Announcement,
  announcements,
  replyParts,
  supposed,
  type Tier,
} from "./_statements.ts";

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
  kind: NumberKind;
  /**
   * Numbers the grader's rules set aside as not the answer, each with why
   * (`"48213: restates the question"`; see {@linkcode SetAsideWhy}).
   * Absent when none was.
   */
  setAside?: string[];
}

/**
 * Why a number of a reply is not its answer (`docs/extraction.md`, rule
 * 4): it restates the question's inputs, sits in a check or recap after
 * the answer, answers a problem the model made up after answering, or
 * approximates the number before it.
 */
export type SetAsideWhy =
  | "restates the question"
  | "in a check after the answer"
  | "after the answer, in a made-up follow-up"
  | "approximates the answer";

const APPROX =
  /^\s*[,，]?\s*\(?\s*(?:≈|~|\\approx|approximately|about|roughly|or about|约|大约|約)\s*\$?\s*$/i;

/** A word before a number that makes it an approximation of what came before. */
const APPROX_BEFORE =
  /(?:≈|~|\\approx|approximately|about|roughly|around|nearly|almost|约|大约|約|近|将近)\s*\$?\s*$/i;

const REFUSAL =
  /\b(?:I\s+can(?:not|'t|’t)|I\s+(?:am|'m|’m)\s+(?:sorry|unable|not\s+able)|unable\s+to\s+(?:compute|calculate|answer|help|provide)|as\s+an\s+AI)\b|抱歉|对不起|无法(?:计算|回答|提供|完成)|不能(?:计算|回答|提供)|没办法|做不到|建议(?:你|您)?(?:使用|用)计算器/i;

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

/** What the extractor is told about the question a reply answers. */
export interface NumberContext {
  /**
   * The question's text: its numbers are the inputs a reply may restate
   * ("48213 × 90177 = …"), which are never its answer (rule 4).
   */
  question?: string;
}

/** How a reply answers, by the grader's rules (`docs/extraction.md`). */
export type NumberReading =
  /** It states one answer. */
  | { kind: "answer"; found: ExtractedNumber }
  /** It hedges between values, or states final answers that disagree (rule 5). */
  | {
    kind: "ambiguous";
    candidates: string[];
    span: [number, number];
    setAside?: string[];
  }
  /** It declines and states no answer (rule 6). */
  | { kind: "refusal" }
  /** It states no number at all. */
  | { kind: "none" };

/** One explicit statement of an answer. */
interface Statement {
  token: NumberToken;
  /** A second value it hedges with ("13 or 12"). */
  hedge?: NumberToken;
  tier: Tier;
  correction: boolean;
  rule: string;
  /** Where the statement starts (its phrase, box or bold). */
  at: number;
}

/** The number an announcement's value is: the first token close after it. */
function announced(
  tokens: NumberToken[],
  text: string,
  a: Announcement,
): NumberToken | undefined {
  const t = pickAfterMarker(tokens, text, a.end);
  if (t === undefined) return undefined;
  const gap = text.slice(a.end, t.start);
  // "Answer:\n\n**42**" binds; a number two sentences later does not.
  if (gap.length > 40 || (gap.match(/\n/g)?.length ?? 0) > 2) return undefined;
  if (/[.。!?！？](?:\s|$)/.test(gap.replace(/\d\.\d/g, ""))) return undefined;
  return t;
}

/** A second value right after a stated one: "13 or 12", "12–13", "12 或 13". */
function hedgeAfter(
  tokens: NumberToken[],
  text: string,
  t: NumberToken,
): NumberToken | undefined {
  const next = tokens.find((x) => x.start >= t.end);
  if (next === undefined) return undefined;
  return /^\s*(?:,?\s*or(?:\s+maybe|\s+possibly)?|或者?|还是|to|~|–|—)\s*\$?\s*$/i
      .test(text.slice(t.end, next.start)) &&
      formatRational(next.value) !== formatRational(t.value)
    ? next
    : undefined;
}

/**
 * Bold that holds an answer: the number alone (`**144**`), with a unit or
 * a word or two (`**215 pages**`, `**$17.50**`), or as `**x = 7**`; never
 * bold that holds working (two numbers, an operator).
 */
function boldStatements(tokens: NumberToken[], text: string): Statement[] {
  const out: Statement[] = [];
  for (const m of text.matchAll(/\*\*([^*\n]{1,60})\*\*/g)) {
    const from = m.index + 2, to = from + (m[1]?.length ?? 0);
    const inside = tokens.filter((t) => t.start >= from && t.end <= to);
    if (inside.length !== 1) continue;
    const only = inside[0]!;
    const before = text.slice(from, only.start);
    const after = text.slice(only.end, to);
    const plainBefore = /^[\s$¥€£(]*$/.test(before) ||
      /^\s*[A-Za-z]\w{0,12}\s*=\s*\$?\s*$/.test(before);
    const plainAfter =
      /^[\s.,:;!。，：；！)%]*(?:[A-Za-z\u4e00-\u9fff]+(?:\s+[A-Za-z\u4e00-\u9fff]+){0,2})?[\s.,:;!。，：；！)]*$/
        .test(after);
    if (plainBefore && plainAfter) {
      out.push({
        token: only,
        tier: 2,
        correction: false,
        rule: "bold",
        at: m.index,
      });
    }
  }
  return out;
}

/** The explicit statements of a reply, in order. */
function statementsOf(tokens: NumberToken[], text: string): Statement[] {
  const out: Statement[] = [];
  for (const a of announcements(text)) {
    const t = announced(tokens, text, a);
    // "若题目是 6 × 8，则答案为 48": a supposition, not the answer.
    if (t === undefined || supposed(text, a.start)) continue;
    const hedge = hedgeAfter(tokens, text, t);
    out.push({
      token: t,
      ...(hedge === undefined ? {} : { hedge }),
      tier: a.tier,
      correction: a.correction,
      rule: a.rule,
      at: a.start,
    });
  }
  for (const [from, to] of boxedSpans(text)) {
    const t = pickInRegion(tokens, text, from, to);
    if (t !== undefined) {
      out.push({
        token: t,
        tier: 3,
        correction: false,
        rule: "boxed",
        at: from,
      });
    }
  }
  out.push(...boldStatements(tokens, text));
  out.sort((a, b) => a.at - b.at);
  // "The answer is **42**" states 42 once: one statement per number
  // written, the strongest (then the first) of those pointing at it.
  const byToken = new Map<number, Statement>();
  for (const s of out) {
    const had = byToken.get(s.token.start);
    if (had === undefined || s.tier > had.tier) byToken.set(s.token.start, s);
  }
  return [...byToken.values()].sort((a, b) => a.at - b.at);
}

/**
 * Reads the answer number of a model reply the way a careful grader does
 * (`docs/extraction.md`): reasoning blocks are working; an explicit
 * statement (an answer marker, `\boxed{}`, a bold answer) beats a number
 * that is merely present; a later correction after a retraction ("Actually,
 * … the correct total is 63") supersedes an earlier answer; numbers that
 * restate the question, that sit in a check or recap after the answer or
 * that answer a problem the model made up are not answers; a hedge ("13 or
 * 12") or final answers that disagree are ambiguous; a reply that declines
 * and states no answer of its own is a refusal. Notation is read exactly
 * (see {@linkcode extractNumber}). Never throws.
 *
 * @param text The reply.
 * @param context The question (its numbers are the inputs).
 * @returns The answer, an ambiguity with its candidates, a refusal, or none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readNumber } from "./number.ts";
 * const r = readNumber("Answer: 76. Actually, hold on, I forgot the tip: the correct total is 63.");
 * assert.equal(r.kind === "answer" && r.found.exact, "63");
 * assert.deepEqual(readNumber("the answer is 13 or 12"), { kind: "ambiguous", candidates: ["13", "12"], span: [14, 22] });
 * assert.equal(readNumber("我没办法心算，建议你用计算器算一下 48213 × 90177", { question: "48213 × 90177 = ?" }).kind, "refusal");
 * ```
 */
export function readNumber(
  text: string,
  context: NumberContext = {},
): NumberReading {
  // The commonest reply, a bare integer, without the scan (about 15 µs of
  // a row's CPU at 0 ms latency, and the suites read a reply twice): the
  // result the scan gives (tests/extract/bare_number_test.ts checks it).
  if (BARE_INTEGER.test(text)) {
    return {
      kind: "answer",
      found: {
        value: Number(text),
        exact: text,
        rule: "bare",
        span: [0, text.length],
        candidates: 1,
        kind: "plain",
      },
    };
  }
  try {
    const clean = blankThinking(normalizeChars(text));
    const all = scanNumbers(clean);
    const arabic = all.filter((t) => t.kind !== "chinese");
    // Chinese numerals count only where no Arabic numbers are written.
    const tokens = arabic.length > 0 ? arabic : all;
    if (tokens.length === 0) {
      return REFUSAL.test(clean) ? { kind: "refusal" } : { kind: "none" };
    }
    const inputs = new Set(
      context.question === undefined
        ? []
        : scanNumbers(normalizeChars(context.question)).map((t) =>
          formatRational(t.value)
        ),
    );
    const isInput = (t: NumberToken) => inputs.has(formatRational(t.value));
    // What the rules set aside, and why, in reply order (rule 4).
    const asides = new Map<string, [number, string]>();
    const aside = (t: NumberToken, why: SetAsideWhy) => {
      const line = `${formatRational(t.value)}: ${why}`;
      if (!asides.has(line)) asides.set(line, [t.start, line]);
    };
    /** The set-aside lines, less those of the value chosen (`answer`). */
    const setAside = (answer?: NumberToken) => {
      const skip = answer === undefined
        ? null
        : `${formatRational(answer.value)}:`;
      const lines = [...asides.values()]
        .filter(([, line]) => skip === null || !line.startsWith(skip))
        .sort((a, b) => a[0] - b[0]).map(([, line]) => line);
      return lines.length === 0 ? {} : { setAside: lines };
    };
    const found = statementsOf(tokens, clean);
    const first = found.find((s) => s.tier >= 2)?.at ?? -1;
    const parts = replyParts(clean, first);
    const inAnswer = (at: number) => at < parts.end;
    /** An afterword (check, recap) that opened after the first statement, before `at`. */
    const inAfterword = (at: number) =>
      parts.afterwords.some((w) => w > first && first >= 0 && w < at);
    const retractedBetween = (a: number, b: number) =>
      parts.retractions.some((r) => r > a && r <= b);
    /** Why a number lies outside the answering text, or null. */
    const outside = (t: NumberToken): SetAsideWhy | null =>
      t.end > parts.end
        ? "after the answer, in a made-up follow-up"
        : parts.afterwords.some((w) =>
            w < t.start && w > 0 &&
            tokens.some((x) => x.end <= w && !isInput(x))
          )
        ? "in a check after the answer"
        : null;
    const statements = found.filter((s) => {
      if (!inAnswer(s.at)) {
        aside(s.token, "after the answer, in a made-up follow-up");
        return false;
      }
      if (
        inAfterword(s.at) && !s.correction && !retractedBetween(first, s.at)
      ) {
        aside(s.token, "in a check after the answer");
        return false;
      }
      // A statement of the question's own inputs ("the answer is 48213 ×
      // 90177 = …" resolves to the result; "48213" alone restates).
      if (
        isInput(s.token) && s.rule !== "boxed" && inputs.size > 1 &&
        tokens.some((t) => t.start > s.token.end && t.start < parts.end)
      ) {
        aside(s.token, "restates the question");
        return false;
      }
      return true;
    });
    let chosen: Statement[] = [];
    const top = Math.max(0, ...statements.map((s) => s.tier));
    for (const s of statements) {
      const settles = s.correction ||
        (chosen.length > 0 && retractedBetween(chosen.at(-1)!.at, s.at));
      if (s.tier < top && !settles) continue;
      // Weak statements ("the total is 45 … the total is 63") are working
      // until the last; only answers proper can disagree (rule 5).
      if (chosen.length === 0 || settles || s.tier === 1) chosen = [s];
      else chosen.push(s);
    }
    // A retraction after the last statement with nothing stated after it
    // leaves the statement standing (the model re-checked and kept it).
    if (chosen.length > 0) {
      // Numbers after the answer in a check or a made-up follow-up.
      for (const t of tokens) {
        const why = t.start > chosen.at(-1)!.token.end ? outside(t) : null;
        if (why !== null) aside(t, why);
      }
      const values = [
        ...new Set(chosen.map((s) => formatRational(s.token.value))),
      ];
      const last = chosen.at(-1)!;
      if (values.length > 1 || last.hedge !== undefined) {
        const hedged = last.hedge === undefined ? values : [
          formatRational(last.token.value),
          formatRational(last.hedge.value),
        ];
        return {
          kind: "ambiguous",
          candidates: hedged,
          span: [
            last.hedge === undefined
              ? chosen[0]!.token.start
              : last.token.start,
            (last.hedge ?? last.token).end,
          ],
          ...setAside(),
        };
      }
      return {
        kind: "answer",
        found: {
          ...answerOf(
            last.token,
            last.rule,
            statements.length > 0
              ? new Set(statements.map((s) => formatRational(s.token.value)))
                .size
              : 1,
          ),
          ...setAside(last.token),
        },
      };
    }
    // No statement: the final number of the answering text, but not one
    // that restates the question, sits in a check or recap, or only
    // approximates the number before it.
    const body = tokens.filter((t) => outside(t) === null);
    const own = body.filter((t) => !isInput(t));
    // A refusal states no number of its own: its numbers restate the
    // question (known inputs, or operands of an expression left unworked).
    const stated = own.filter((t) =>
      /(?:=|≈|is|are|was|gives?|makes?|equals|为|是|得|等于)\s*[$¥€£]?\s*$/i
        .test(clean.slice(Math.max(0, t.start - 12), t.start)) ||
      !/[×x*+\-÷/·]\s*$|^\s*[×x*+\-÷/·]/.test(
        clean.slice(Math.max(0, t.start - 3), t.start) +
          "|" + clean.slice(t.end, t.end + 3),
      )
    );
    if (stated.length === 0 && REFUSAL.test(clean)) return { kind: "refusal" };
    const pool = own.length > 0 ? own : body.length > 0 ? body : tokens;
    // Recorded only where they were left out of the pool the answer is
    // taken from.
    if (pool !== tokens) {
      for (const t of tokens) {
        const why = outside(t);
        if (why !== null) aside(t, why);
        else if (pool === own && isInput(t)) aside(t, "restates the question");
      }
    }
    let index = pool.length - 1;
    const prev = pool[index - 1], final = pool[index]!;
    // A decimal approximation of an exact fraction ("19/12 ≈ 1.58") is
    // not the answer; the fraction is. So is "2,083,725, roughly 2.08 million".
    if (
      prev !== undefined &&
      ((prev.kind === "fraction" || prev.kind === "latex_frac") &&
          APPROX.test(clean.slice(prev.end, final.start)) ||
        // A stated number (not an operand: "100 ÷ 7 ≈ 14.29" answers 14.29).
        APPROX_BEFORE.test(
            clean.slice(Math.max(prev.end, final.start - 20), final.start),
          ) &&
          !/[×x*+\-÷/·]\s*$/.test(
            clean.slice(Math.max(0, prev.start - 3), prev.start),
          ))
    ) {
      aside(final, "approximates the answer");
      index--;
    }
    const last = pool[index]!;
    // "It is 13 or 12.": a hedge between the last two values (rule 5).
    const before = pool[index - 1];
    if (before !== undefined && hedgeAfter(pool, clean, before) === last) {
      return {
        kind: "ambiguous",
        candidates: [formatRational(before.value), formatRational(last.value)],
        span: [before.start, last.end],
        ...setAside(),
      };
    }
    // "Bare": nothing but the number, maybe in $…$ or backticks, maybe a full stop.
    const strip = (x: string) =>
      x.replace(/^[\s$`]+/, "").replace(/[\s$`.。!！]+$/, "");
    const bare = tokens.length === 1 &&
      strip(clean) === strip(clean.slice(last.start, last.end));
    return {
      kind: "answer",
      found: {
        ...answerOf(
          last,
          bare ? "bare" : "last_number",
          new Set(tokens.map((t) => formatRational(t.value))).size,
        ),
        ...setAside(last),
      },
    };
  } catch {
    return { kind: "none" };
  }
}

/** An answer token as an {@linkcode ExtractedNumber}. */
function answerOf(
  token: NumberToken,
  rule: string,
  candidates: number,
): ExtractedNumber {
  return {
    value: Number(token.value.valueOf()),
    exact: formatRational(token.value),
    rule,
    span: [token.start, token.end],
    candidates,
    kind: token.kind,
  };
}

/**
 * Extracts the answer number from a model reply (see {@linkcode readNumber}
 * for the rules): the answer, or null for a refusal, an ambiguous reply or
 * a reply without a number.
 *
 * Handles trailing punctuation (ASCII and Chinese), thousands separators
 * of every common style (`1,234`, `1{,}234`, `1\,234`, `1 234 567` with
 * spaces, thin or no-break spaces, `1.234.567`, `12,34,567`, `1'234'567`),
 * currency symbols and units, Unicode minus and fullwidth characters,
 * fractions (`a/b`; `\frac`, `\dfrac`, `\tfrac` signed in any form), mixed
 * numbers (`2 1/4`, `2\tfrac{1}{4}`), percentages as written (`25%` gives
 * 25), scientific notation (`1.5e3`, `3.2 \times 10^{4}`, `1.21 × 10⁻⁴`),
 * "million/billion", `\boxed{}`, markdown bold, answer markers ("Answer:",
 * "Final answer:", "####", "答案是", "答案：", "结果为"), Chinese numerals up
 * to 亿 and units (`12.5 万`, `23 元 5 角`), and `<think>` blocks (ignored).
 * Never throws.
 *
 * @param text The reply text.
 * @param context The question (its numbers are not answers).
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
export function extractNumber(
  text: string,
  context: NumberContext = {},
): ExtractedNumber | null {
  const reading = readNumber(text, context);
  return reading.kind === "answer" ? reading.found : null;
}

/**
 * A reply's number as a suite's finder reports it (see `suiteExtract`):
 * the answer as an exact rational; an ambiguous reply as no value with
 * rule `"ambiguous"` and the values it could not choose between; a
 * refusal as no value with rule `"refusal"`; null without a number.
 *
 * @param text The reply.
 * @param context The question (its numbers are not answers).
 * @returns The finder's answer, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberAnswer } from "./number.ts";
 * assert.equal(numberAnswer("Final answer: 1,234")?.value, "1234");
 * assert.deepEqual(numberAnswer("It is 13 or 12.")?.alternatives, ["13", "12"]);
 * assert.equal(numberAnswer("I can't compute 12 × 12.")?.rule, "refusal");
 * ```
 */
export function numberAnswer(
  text: string,
  context: NumberContext = {},
): FoundAnswer | null {
  const reading = readNumber(text, context);
  switch (reading.kind) {
    case "answer": {
      const { found } = reading;
      return found.exact === undefined ? null : {
        value: found.exact,
        rule: found.rule,
        span: found.span,
        candidates: found.candidates,
        ...(found.setAside ? { setAside: found.setAside } : {}),
      };
    }
    case "ambiguous":
      return {
        value: null,
        rule: "ambiguous",
        span: reading.span,
        candidates: reading.candidates.length,
        alternatives: reading.candidates,
        ...(reading.setAside ? { setAside: reading.setAside } : {}),
      };
    case "refusal":
      return { value: null, rule: "refusal", span: null, candidates: 0 };
    case "none":
      return null;
  }
}
