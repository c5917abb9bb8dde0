/**
 * The parts of a reply a careful grader reads differently (see
 * `docs/extraction.md`): where the answer ends (a problem the model made
 * up after answering, a check or a recap after the answer), the words that
 * retract an earlier answer, and the words that announce one. Shared by
 * the number and choice extractors; private to `lib/extract`.
 *
 * @module
 */

/**
 * Words that take back what came before (rule 3): "Actually", "Wait",
 * "hold on", "I made a mistake", "let me redo", "不对", "更正", "重新计算".
 */
export const RETRACTION =
  /\b(?:actually|wait|hold on|hmm+|oops|correction|corrected|correcting|revised|revising|on second thought|scratch that|i made (?:a|an) (?:mistake|error)|i miscalculated|that(?:'s| is) (?:wrong|incorrect|not right)|let me (?:redo|re-?do|recompute|recalculate|correct|start over))\b|不对|更正|纠正|重新(?:计算|算)|算错|错了|等等|修正/gi;

/**
 * A heading or lead that starts a problem the model invented after
 * answering (rule 4): "Problem 2:", "**Question 2**", "Next question",
 * "Follow-up:", "练习：", "例2".
 */
const FOLLOW_UP =
  /(?:^|\n)[ \t]*(?:#{1,6}[ \t]*|\*\*|__)?(?:(?:problem|question|exercise|example|practice(?: problem| question)?|bonus(?: question)?|next(?: question| problem)?|follow[- ]?up(?: question)?|try this|another (?:one|example|problem))[ \t]*(?:\d+|[ivx]+)?[ \t]*(?:\*\*|__)?[ \t]*[:：.)]|(?:练习|例题?|问题|题目|思考题|变式|拓展)[ \t]*[\d一二三四五六七八九十]*[ \t]*(?:\*\*)?[ \t]*[:：.)、]|[【\[][^】\]\n]{0,6}(?:训练|练习|拓展|变式|举一反三)[^】\]\n]{0,4}[】\]]|第[\d二三四五六七八九十]+题)/gi;

/**
 * A lead that starts a check or a recap of an answer already given (rule
 * 4): "Check:", "Verification", "Quick recap", "验证", "检验".
 */
const AFTERWORD =
  /(?:^|\n|[.。!！]\s*|\s)(?:\*\*|#{1,6}\s*)?(?:check(?:ing)?|verif(?:y|ication)|double[- ]?check|sanity check|quick recap|recap|to summarize|in summary|summary|验证|检验|验算|检查|复核|总结|回顾)(?:\*\*)?\s*[:：.,，]/gi;

/** Where the answer of a reply ends, and the checks that follow it. */
export interface ReplyParts {
  /** Text from here on answers a problem the model invented (rule 4). */
  end: number;
  /** Starts of checks and recaps, in order. */
  afterwords: number[];
  /** Ends of retraction cues, in order. */
  retractions: number[];
}

/**
 * Splits a (normalised, reasoning-blanked) reply into its parts: the
 * answering text ends where a made-up follow-up problem starts, but only
 * after the reply has stated an answer (`firstStatement`); checks and
 * retractions are listed by position.
 *
 * @param text The reply.
 * @param firstStatement Where the first explicit answer statement is, or -1.
 * @returns The parts.
 */
export function replyParts(text: string, firstStatement: number): ReplyParts {
  let end = text.length;
  if (firstStatement >= 0) {
    for (const m of text.matchAll(FOLLOW_UP)) {
      if (m.index > firstStatement) {
        end = m.index;
        break;
      }
    }
  }
  const afterwords = [...text.matchAll(AFTERWORD)].map((m) => m.index)
    .filter((at) => at < end);
  const retractions = [...text.matchAll(RETRACTION)].map((m) =>
    m.index + m[0].length
  ).filter((at) => at < end);
  return { end, afterwords, retractions };
}

/** How strongly a statement says "this is my answer". */
export type Tier = 1 | 2 | 3;

/** An answer-announcing phrase: where the announced value starts, and how strong it is. */
export interface Announcement {
  /** Where the phrase starts. */
  start: number;
  /** Where the phrase ends (the value follows). */
  end: number;
  /** 3: final answer, boxed, a correction; 2: answer, bold; 1: a value a sentence settles on ("the total is 63"). */
  tier: Tier;
  /** The phrase states a correction ("the correct answer is", "应该是"). */
  correction: boolean;
  /** Its rule name. */
  rule: string;
}

const ANNOUNCE: {
  re: RegExp;
  tier: Tier;
  correction: boolean;
  rule: string;
}[] = [
  {
    // The correct answer is / the correct total should be / it should be
    re:
      /\b(?:the\s+)?(?:correct|right|actual|true|corrected)\s+(?:final\s+)?(?:answer|total|result|value|sum|product|difference|quotient|amount|number|count)\s*(?:is|would be|should be|=|:)\s*|\bit\s+should\s+(?:actually\s+)?be\s*|\bso\s+the\s+(?:answer|total)\s+is\s+actually\s*/gi,
    tier: 3,
    correction: true,
    rule: "correction",
  },
  {
    re: /(?:正确(?:的)?(?:答案|结果)|应该)(?:是|为|：|:)\s*/g,
    tier: 3,
    correction: true,
    rule: "correction",
  },
  {
    re:
      /\bfinal\s+(?:answer|result)\b\**\s*(?:is\s*:?|should\s+be|would\s+be|will\s+be|equals|:|=)?\**\s*|####\s*/gi,
    tier: 3,
    correction: false,
    rule: "answer_marker",
  },
  {
    re: /(?:最终答案|最后答案|最终结果)\s*(?:应该?是|是|为|:|：|=)?\s*/g,
    tier: 3,
    correction: false,
    rule: "answer_marker",
  },
  {
    re:
      /\b(?:the\s+)?answer\b\**\s*(?:is\s*:?|should\s+be|would\s+be|will\s+be|equals|:|=)\**\s*|\b(?:the\s+)?result\b\**\s*(?:is\s*:?|should\s+be|would\s+be|will\s+be|equals|:|=)\**\s*/gi,
    tier: 2,
    correction: false,
    rule: "answer_marker",
  },
  {
    re: /(?:答案|结果|得数)\s*(?:应该?是|是|为|:|：|=)\s*/g,
    tier: 2,
    correction: false,
    rule: "answer_marker",
  },
  {
    // After a retraction, the value a sentence settles on: "so the total is 63".
    re:
      /\b(?:total|sum|product|difference|quotient|amount|cost|price|value|result|everyone|each(?:\s+\w+)?)\b[^.\n]{0,24}?\b(?:is|comes to|equals|=|pays?|gets?)\s*|(?:共|一共|总共|合计|总计|每人|每个)\s*(?:是|为|需要|要|付|得)?\s*/gi,
    tier: 1,
    correction: false,
    rule: "statement",
  },
];

/**
 * Every answer-announcing phrase of a text, in order; where phrases
 * overlap, the stronger (then the longer) is kept.
 *
 * @param text The reply (normalised, reasoning blanked).
 * @returns The announcements by position.
 */
export function announcements(text: string): Announcement[] {
  const found: Announcement[] = [];
  for (const { re, tier, correction, rule } of ANNOUNCE) {
    for (const m of text.matchAll(re)) {
      found.push({
        start: m.index,
        end: m.index + m[0].length,
        tier,
        correction,
        rule,
      });
    }
  }
  found.sort((a, b) => a.start - b.start || b.tier - a.tier || b.end - a.end);
  const out: Announcement[] = [];
  for (const a of found) {
    const last = out.at(-1);
    if (last !== undefined && a.start < last.end) {
      if (a.tier > last.tier || (a.tier === last.tier && a.end > last.end)) {
        out[out.length - 1] = a;
      }
      continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * A clause that only supposes (rule 4): "若题目是 6 × 8，则答案为 48",
 * "if it were …, B", "注：…". Tested on the text from the clause's start
 * to the statement.
 */
export const HYPOTHETICAL =
  /(?:若|如果|假如|假设|假若|倘若|要是|\bif\b|\bwere\b|\bsuppose\b|注[:：])[^。；;.!?！？\n]*$/i;

/**
 * Whether the statement at `at` lies in a clause that only supposes
 * (see {@linkcode HYPOTHETICAL}).
 *
 * @param text The (prepared) reply.
 * @param at Where the statement starts.
 * @returns True for "若题目是 6 × 8，则答案为 48"'s 48.
 */
export function supposed(text: string, at: number): boolean {
  const clause = text.slice(
    Math.max(
      0,
      ...[..."。；;!?！？\n（("].map((c) => text.lastIndexOf(c, at - 1) + 1),
    ),
    at,
  );
  return HYPOTHETICAL.test(clause);
}
