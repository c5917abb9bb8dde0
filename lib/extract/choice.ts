/**
 * `extractChoice`: the letter a reply to a multiple-choice question
 * commits to.
 *
 * @module
 */
import { CHOICE_RULES } from "./_choice_rules.ts";
import { prepareChoiceText } from "./_choice_text.ts";
import { replyParts, RETRACTION, supposed } from "./_statements.ts";
import type { FoundAnswer } from "./suite_extract.ts";

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

/** The option letter a matched character names (a lower-case one as its capital), or null. */
function letterFor(ch: string, allowed: ReadonlySet<string>): string | null {
  if (allowed.has(ch)) return ch;
  const upper = ch.toUpperCase();
  return upper !== ch && allowed.has(upper) && !allowed.has(ch) ? upper : null;
}

/** Every answer statement in the prepared text, in order of position. */
function statements(text: string, allowed: ReadonlySet<string>, cls: string) {
  const hits: Hit[] = [];
  for (const [name, re] of compiled(cls)) {
    for (const m of text.matchAll(re)) {
      const group = m.groups?.L ?? "";
      const letters = [...group].map((ch) => letterFor(ch, allowed)).filter((
        l,
      ): l is string => l !== null);
      if (letters.length === 0) continue;
      const start = (m.index ?? 0) + m[0].lastIndexOf(group);
      const after = text.slice(start + group.length);
      // "答案是 a bit unclear": a lower-case letter followed by a word is one.
      if (!allowed.has(group[0]!) && /^\s+[A-Za-z]{2,}/.test(after)) continue;
      // "选A是错误的", "答案A、B、C都不对": letters named to be ruled out.
      if (NEGATED.test(after)) continue;
      // "若题干改为……则应选B": a supposition, not the answer.
      if (supposed(text, start)) continue;
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
  // A first line holding only the letter is the answer; the explanation
  // below may name the other options.
  const alone = /^[\t ]*(?:\*\*)?[)\]]?(?:\*\*)?[.。]?[\t ]*(?:\n|$)/.test(
    text.slice(start + 1),
  );
  const others = mentions(text, cls, start + 1).filter((h) =>
    h.letters[0] !== m[1]
  );
  if (others.length > 0 && !alone) return null;
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
    ) && !NEGATED.test(text.slice(h.end)) &&
    // "A项：…", "因此A项": an option under analysis, not a choice of it.
    !/^\s*(?:选项|项)/.test(text.slice(h.end))
  );
  const last = kept[kept.length - 1];
  return last === undefined ? null : { ...last, rule: "sole_letter" };
}

/** What {@linkcode readChoice} is told about the question. */
export interface ChoiceOptions {
  /** The option letters, case-sensitive. @default ["A", "B", "C", "D"] */
  letters?: readonly string[];
  /**
   * The options' texts by letter: a reply that answers with an option's
   * text ("答案是光合作用") names that option. @default none
   */
  choices?: Readonly<Record<string, string>>;
}

/** How a reply answers a multiple-choice question (`docs/extraction.md`). */
export type ChoiceReading =
  /** It names one option. */
  | { kind: "answer"; found: ChoiceExtraction }
  /** It names several, and nothing settles which (a hedge, statements that disagree). */
  | { kind: "ambiguous"; candidates: string[]; span: [number, number] }
  /** It names none. */
  | { kind: "none" };

/** Whether a retraction cue lies between two positions (rule 3). */
function retracted(text: string, from: number, to: number): boolean {
  const between = text.slice(from, to);
  RETRACTION.lastIndex = 0;
  return RETRACTION.test(between) ||
    /以为|原以为|本以为|误选|错选/.test(between);
}

/**
 * Option letters marked right or wrong, as in a table or a list of the
 * options with ✓/√/✔ and ✗/×: when exactly one letter is marked right (and
 * not also wrong), that letter.
 */
function checkMarks(text: string, allowed: ReadonlySet<string>): Hit[] {
  const right = new Map<string, number>();
  const wrong = new Set<string>();
  for (const m of text.matchAll(/[^\n]+/g)) {
    const line = m[0];
    // "| B | ✓ |", "- **A项**：✘ 错误", "✅ B) India": the mark may
    // come before the letter too.
    const lead =
      /^\s*(?:\|\s*|[-*•]\s+)?([×✗✘☒❌√✓✔☑✅]\uFE0F?\s*)?(?:\*\*)?[(\[]?([A-Z])[)\]]?(?:选项|项)?(?:\*\*)?\s*(?:[.:：、|)]|$|\s)/
        .exec(
          line,
        );
    const letter = lead?.[2];
    if (letter === undefined || !allowed.has(letter)) continue;
    const rest = (lead![1] ?? "") + line.slice(lead![0].length);
    if (/[×✗✘☒❌]/.test(rest)) wrong.add(letter);
    else if (/[√✓✔☑✅]/.test(rest)) {
      right.set(letter, m.index + line.indexOf(letter));
    }
  }
  const marked = [...right].filter(([l]) => !wrong.has(l));
  if (marked.length !== 1 || wrong.size === 0) return [];
  const [letter, at] = marked[0]!;
  return [{ rule: "check_mark", letters: [letter], start: at, end: at + 1 }];
}

/** An option quoted in bold with its text ("**B. 光合作用**"), when it is the only one. */
function boldOption(text: string, cls: string): Hit | null {
  const re = new RegExp(
    String
      .raw`\*\*\s*[(\[]?([${cls}])[)\]]?\s*(?:[.．、:：)]|\s[—–-])\s*[^*\n]{1,60}\*\*`,
    "g",
  );
  const hits = [...text.matchAll(re)];
  const letters = [...new Set(hits.map((m) => m[1]!))];
  if (letters.length !== 1) return null;
  const m = hits.at(-1)!;
  const at = m.index + m[0].indexOf(m[1]!);
  return { rule: "bold_option", letters, start: at, end: at + 1 };
}

/** An answer statement that names an option by its text ("答案是光合作用"). */
function byOptionText(
  text: string,
  choices: Readonly<Record<string, string>>,
  allowed: ReadonlySet<string>,
): Hit[] {
  const out: Hit[] = [];
  const marker =
    /(?:答案|正确答案|正确选项|应选|故选|选择)\s*(?:应该?是|是|为|:|：)?\s*["“「]?|\b(?:the\s+)?(?:correct\s+)?answer\s+is\s*["“]?/gi;
  for (const m of text.matchAll(marker)) {
    const from = m.index + m[0].length;
    for (const [letter, option] of Object.entries(choices)) {
      const t = option.trim();
      if (!allowed.has(letter) || t.length < 2) continue;
      if (text.startsWith(t, from)) {
        out.push({
          rule: "option_text",
          letters: [letter],
          start: from,
          end: from + t.length,
        });
      }
    }
  }
  return out;
}

/**
 * Reads which option a reply to a multiple-choice question names, the way
 * a careful grader does (`docs/extraction.md`): Chinese and English answer
 * statements (答案是, 答案为, 答案：, 答案应为, 选, 故选, 本题选, 选项X是
 * 正确的, 正确的一项是, X是正确的, 不是A而是D, a "答案" heading with the
 * letter below; "The answer is (B)", "Answer: C", "Option B is correct",
 * "I choose D"), `\boxed{}`, letters in either case and fullwidth, an
 * option marked ✓ in a table of ✓ and ✗, an option's text after an answer
 * marker; `<think>` blocks are ignored. Letters named to be ruled out
 * ("误选A", "B选项错误") or in a supposition ("若…则选B") are not answers.
 * A later statement replaces an earlier one after a retraction
 * ("我一开始以为是A……重新计算后答案是C"); statements that disagree
 * otherwise, or a hedge ("A或C"), are ambiguous. Without any statement it
 * accepts one option quoted in bold with its text, a reply that starts
 * with a letter (alone or with its option text, and not followed by
 * "错误"/"is wrong"), a last line that is just a letter, or the only
 * option letter mentioned. Never throws.
 *
 * @param text The reply text.
 * @param options The option letters and texts.
 * @returns The answer, an ambiguity with its candidates, or none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readChoice } from "./choice.ts";
 * const r = readChoice("很多同学会误选A，但答案不是A，而是D");
 * assert.equal(r.kind === "answer" && r.found.letter, "D");
 * assert.equal(readChoice("答案是A或B").kind, "ambiguous");
 * const t = readChoice("答案是光合作用", { choices: { A: "呼吸作用", B: "光合作用", C: "蒸腾作用", D: "吸收作用" } });
 * assert.equal(t.kind === "answer" && t.found.letter, "B");
 * ```
 */
export function readChoice(
  text: string,
  options: ChoiceOptions = {},
): ChoiceReading {
  const { letters = ["A", "B", "C", "D"], choices } = options;
  if (typeof text !== "string" || text === "" || letters.length === 0) {
    return { kind: "none" };
  }
  const allowed = new Set(letters.filter((l) => l.length === 1));
  if (allowed.size === 0) return { kind: "none" };
  const cls = escapeClass([...allowed]);
  // Statements read letters in either case ("答案：c", "The answer is (b)").
  const either = escapeClass([
    ...new Set([...allowed].flatMap((l) => [l, l.toLowerCase()])),
  ]);
  const prepared = prepareChoiceText(text);
  const answer = (h: Hit, candidates: string[]): ChoiceReading => ({
    kind: "answer",
    found: {
      letter: h.letters[0]!,
      rule: h.rule,
      span: [h.start, h.start + 1],
      candidates,
    },
  });

  const every = [
    ...statements(prepared, allowed, either),
    ...checkMarks(prepared, allowed),
    ...(choices === undefined ? [] : byOptionText(prepared, choices, allowed)),
  ].sort((a, b) => a.start - b.start);
  // A question the model made up after answering, and its answer, are not
  // the reply's (rule 4).
  const end = replyParts(prepared, every[0]?.start ?? -1).end;
  const found = every.filter((h) => h.start < end);
  if (found.length > 0) {
    const candidates = [...new Set(found.flatMap((h) => h.letters))];
    // A later statement replaces an earlier one when the reply takes the
    // earlier back between them or turns to it ("不是A，而是D"); otherwise
    // statements that disagree leave the answer ambiguous (rules 3 and 5).
    let chosen: Hit[] = [];
    for (const h of found) {
      const settles = h.rule === "rather_zh" ||
        (chosen.length > 0 &&
          retracted(prepared, chosen.at(-1)!.end, h.start));
      if (chosen.length === 0 || settles) chosen = [h];
      else chosen.push(h);
    }
    const stated = [...new Set(chosen.flatMap((h) => h.letters))];
    const last = chosen[chosen.length - 1]!;
    if (stated.length !== 1) {
      return {
        kind: "ambiguous",
        candidates: stated,
        span: [chosen[0]!.start, last.end],
      };
    }
    return answer(last, candidates);
  }
  const quoted = boldOption(prepared, cls);
  if (quoted !== null) return answer(quoted, quoted.letters);
  const all = mentions(prepared, cls);
  const mentioned = [...new Set(all.map((h) => h.letters[0]!))];
  const weak = leadingLetter(prepared, cls) ?? lastLine(prepared, cls) ??
    (mentioned.length === 1 ? soleLetter(prepared, all) : null);
  if (weak === null) return { kind: "none" };
  return {
    kind: "answer",
    found: {
      letter: weak.letters[0]!,
      rule: weak.rule,
      span: [weak.start, weak.end],
      candidates: mentioned,
    },
  };
}

/**
 * Finds the option letter a reply commits to (see {@linkcode readChoice}
 * for the rules): the letter, or null when it names none or several that
 * nothing settles between.
 *
 * @param text The reply text.
 * @param letters The option letters, case-sensitive. @default ["A", "B", "C", "D"]
 * @returns The letter, the rule, its span and the candidate letters; or
 *   null.
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
  const reading = readChoice(text, { letters });
  return reading.kind === "answer" ? reading.found : null;
}

/**
 * A reply's option as a suite's finder reports it (see `suiteExtract`):
 * the letter; an ambiguous reply as no value with rule `"ambiguous"` and
 * the letters it named; null when it names none.
 *
 * @param text The reply.
 * @param options The option letters and texts.
 * @returns The finder's answer, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceAnswer } from "./choice.ts";
 * assert.equal(choiceAnswer("The answer is (b).")?.value, "B");
 * assert.deepEqual(choiceAnswer("答案是A或C")?.alternatives, ["A", "C"]);
 * ```
 */
export function choiceAnswer(
  text: string,
  options: ChoiceOptions = {},
): FoundAnswer | null {
  const reading = readChoice(text, options);
  switch (reading.kind) {
    case "answer":
      return {
        value: reading.found.letter,
        rule: reading.found.rule,
        span: reading.found.span,
        candidates: reading.found.candidates,
      };
    case "ambiguous":
      return {
        value: null,
        rule: "ambiguous",
        span: reading.span,
        candidates: reading.candidates.length,
        alternatives: reading.candidates,
      };
    case "none":
      return null;
  }
}
