/**
 * `extractChoice`: the letter a reply to a multiple-choice question
 * commits to.
 *
 * @module
 */
import { CHOICE_RULES } from "./_choice_rules.ts";
import { prepareChoiceText } from "./_choice_text.ts";

/** What {@linkcode extractChoice} found. */
export interface ChoiceExtraction {
  /** The chosen letter, one of the given letters. */
  letter: string;
  /**
   * The rule that fired: an answer statement (`boxed`, `answer_is_zh`,
   * `correct_is_zh`, `option_correct_zh`, `choose_zh`, `answer_is_en`,
   * `option_correct_en`, `choose_en`), or a weaker cue when the reply has
   * none: `leading_letter` (the reply starts with a letter, alone or with
   * its option text), `last_line` (the last line is just a letter),
   * `sole_letter` (the only option letter the reply mentions).
   */
  rule: string;
  /** Where the letter is in the original text, [start, end). */
  span: [number, number];
  /** Distinct letters the reply stated as its answer (or mentioned, for the weak cues), in order of appearance. */
  candidates: string[];
}

interface Hit {
  rule: string;
  letters: string[];
  start: number;
  end: number;
}

function escapeClass(letters: readonly string[]): string {
  return letters.map((l) => l.replace(/[\\\]^-]/g, "\\$&")).join("");
}

/** Compiled rules per letter class (matchAll copies a regex, so sharing is safe). */
const COMPILED = new Map<string, [string, RegExp][]>();

function compiled(cls: string): [string, RegExp][] {
  let rules = COMPILED.get(cls);
  if (rules === undefined) {
    rules = CHOICE_RULES.map((r) => [r.name, r.build(cls)]);
    if (COMPILED.size > 64) COMPILED.clear();
    COMPILED.set(cls, rules);
  }
  return rules;
}

/** Every answer statement in the prepared text, in order of position. */
function statements(text: string, allowed: ReadonlySet<string>, cls: string) {
  const hits: Hit[] = [];
  for (const [name, re] of compiled(cls)) {
    for (const m of text.matchAll(re)) {
      const group = m.groups?.L ?? "";
      const letters = [...group].filter((ch) => allowed.has(ch));
      // A letter of the wrong case (the /i rules) is no statement.
      if (letters.length === 0 || !allowed.has(group[0]!)) continue;
      const start = (m.index ?? 0) + m[0].lastIndexOf(group);
      hits.push({
        rule: name,
        letters: [...new Set(letters)],
        start,
        end: start + group.length,
      });
    }
  }
  // Rules overlap ("答案是选B" and "选B"): keep one hit per letter group.
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  return hits.filter((h, i) => i === 0 || hits[i - 1]!.start !== h.start);
}

/** Standalone option letters (not inside a word; not the English article "A word"). */
function mentions(text: string, cls: string, from = 0): Hit[] {
  const re = new RegExp(`(?<![A-Za-z0-9])[${cls}](?![A-Za-z0-9])`, "g");
  re.lastIndex = from;
  const out: Hit[] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === "A" && /^ [a-z]/.test(text.slice(m.index + 1, m.index + 3))) {
      continue;
    }
    out.push({
      rule: "mention",
      letters: [m[0]],
      start: m.index,
      end: m.index + 1,
    });
  }
  return out;
}

const NEGATED =
  /^\s*[.:、,)\]]?\s*(?:选项|项)?\s*(?:明显|显然|肯定|是|也|都)?\s*(?:错误|错|不正确|不对|不是|不符|is\s+(?:wrong|incorrect|not|false)|wrong|incorrect)/i;

function leadingLetter(
  text: string,
  cls: string,
): Hit | null {
  const m = new RegExp(
    String
      .raw`^\s*(?:\*\*)?[(\[]?([${cls}])[)\]]?(?:\*\*)?(?=$|[\s.:、,。，)\]]|[\u4e00-\u9fff])`,
  ).exec(text);
  if (m === null) return null;
  const start = m.index + m[0].lastIndexOf(m[1]!);
  const rest = text.slice(m.index + m[0].length);
  if (m[1] === "A" && /^ [a-z]/.test(rest)) return null; // "A good idea…"
  if (NEGATED.test(rest)) return null;
  const others = mentions(text, cls, start + 1).filter((h) =>
    h.letters[0] !== m[1]
  );
  if (others.length > 0) return null;
  return { rule: "leading_letter", letters: [m[1]!], start, end: start + 1 };
}

function lastLine(text: string, cls: string): Hit | null {
  const m = new RegExp(
    String
      .raw`(?:^|\n)[ \t]*(?:\*\*)?[(\[]?([${cls}])[)\]]?(?:\*\*)?[.。]?[ \t]*\s*$`,
  ).exec(text);
  if (m === null) return null;
  const start = m.index + m[0].indexOf(m[1]!, m[0].startsWith("\n") ? 1 : 0);
  return { rule: "last_line", letters: [m[1]!], start, end: start + 1 };
}

/** The only letter mentioned, unless every mention of it is negated. */
function soleLetter(text: string, all: Hit[]): Hit | null {
  const kept = all.filter((h) =>
    !/(?:不|非|not\s*|n't\s*)(?:是|选|为)?\s*(?:选项)?\s*[(\[]?$/i.test(
      text.slice(Math.max(0, h.start - 8), h.start),
    ) && !NEGATED.test(text.slice(h.end))
  );
  const last = kept[kept.length - 1];
  return last === undefined ? null : { ...last, rule: "sole_letter" };
}

/**
 * Finds the option letter a reply commits to. Reads Chinese and English
 * answer statements (答案是, 答案为, 答案：, 答案应为, 选, 故选, 本题选,
 * 选项X是正确的, 正确的一项是, X是正确的; "The answer is (B)", "Answer:
 * C", "Option B is correct", "I choose D"), `\boxed{}`, fullwidth letters,
 * and ignores `<think>` blocks. When the reply makes several answer
 * statements, the last one wins ("A 明显错误…所以答案是D" gives D;
 * "答案是 B，而不是 C" gives B). Without any statement it accepts a reply
 * that starts with a letter (alone or with its option text, and not
 * followed by "错误"/"is wrong"), a last line that is just a letter, or
 * the only option letter mentioned. Never throws.
 *
 * @param text The reply text.
 * @param letters The option letters, case-sensitive. @default ["A", "B", "C", "D"]
 * @returns The letter, the rule, its span and the candidate letters; or
 *   null when no letter is stated or several are equally plausible (a
 *   final statement naming two letters, a reply that only lists letters).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractChoice } from "./choice.ts";
 * assert.equal(extractChoice("A 明显错误，B 也不对。所以答案是D。")?.letter, "D");
 * assert.equal(extractChoice("答案是 B，而不是 C")?.letter, "B");
 * assert.equal(extractChoice("The answer is (C).")?.rule, "answer_is_en");
 * assert.equal(extractChoice("答案是A或B"), null);
 * assert.equal(extractChoice("<think>选A</think>答案：Ｃ")?.span?.[0], 20);
 * ```
 */
export function extractChoice(
  text: string,
  letters: readonly string[] = ["A", "B", "C", "D"],
): ChoiceExtraction | null {
  if (typeof text !== "string" || text === "" || letters.length === 0) {
    return null;
  }
  const allowed = new Set(letters.filter((l) => l.length === 1));
  if (allowed.size === 0) return null;
  const cls = escapeClass([...allowed]);
  const prepared = prepareChoiceText(text);

  const found = statements(prepared, allowed, cls);
  if (found.length > 0) {
    const candidates = [...new Set(found.flatMap((h) => h.letters))];
    const last = found[found.length - 1]!;
    if (last.letters.length !== 1) return null;
    return {
      letter: last.letters[0]!,
      rule: last.rule,
      span: [last.start, last.start + 1],
      candidates,
    };
  }
  const all = mentions(prepared, cls);
  const mentioned = [...new Set(all.map((h) => h.letters[0]!))];
  const weak = leadingLetter(prepared, cls) ?? lastLine(prepared, cls) ??
    (mentioned.length === 1 ? soleLetter(prepared, all) : null);
  if (weak === null) return null;
  return {
    letter: weak.letters[0]!,
    rule: weak.rule,
    span: [weak.start, weak.end],
    candidates: mentioned,
  };
}
