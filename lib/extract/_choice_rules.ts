/**
 * The answer-statement patterns of {@linkcode extractChoice}. Written by
 * hand: no library knows how Chinese and English exam replies state a
 * multiple-choice answer (the C-Eval and MMLU harnesses each carry their
 * own regex lists, in Python).
 *
 * Each rule is a regex whose named group `L` holds one letter or a group
 * of letters joined by 、/和/与/或/and/or; the letters themselves are
 * validated by the caller (case-sensitive), so `/i` flags only relax the
 * words around them.
 *
 * @module
 */

/** One answer-statement rule. */
export interface ChoiceRule {
  name: string;
  /** Builds the global regex for a letter character class such as `A-D`. */
  build(letter: string): RegExp;
}

/** Opening decoration between a marker and the letter: spaces, `**`, brackets, quotes, "选项"/"option". */
const PRE = String
  .raw`[\s*"'“‘(\[{:]*(?:(?:选项|option|choice)\s*)?[\s*"'“‘(\[{]*`;
/** A letter group: X, or X、Y / X和Y / X或Y / X and Y. */
const group = (l: string) =>
  String
    .raw`(?<![A-Za-z0-9])(?<L>[${l}](?:\s*(?:、|和|与|及|或|/|\band\b|\bor\b)\s*[${l}])*)(?![A-Za-z0-9])`;

/** The answer-statement rules, strongest evidence first (all are "explicit"). */
export const CHOICE_RULES: readonly ChoiceRule[] = [
  {
    name: "boxed",
    build: (l) =>
      new RegExp(
        String
          .raw`\\boxed\s*\{\s*(?:\\(?:text|mathrm|textbf)\s*\{)?\s*\(?${
          group(l)
        }\)?\s*\}?\s*\}`,
        "g",
      ),
  },
  {
    // 答案是 / 答案为 / 答案： / 答案应为 / 答案应该是 / 正确答案是 / 答案选
    name: "answer_is_zh",
    build: (l) =>
      new RegExp(
        String
          .raw`答案\s*(?:应该|应当|应|就|当)?\s*(?:是|为|选择|选|:|】|])\s*(?:是\s*)?${PRE}${
          group(l)
        }`,
        "g",
      ),
  },
  {
    // 答案不是A，而是D / 不选A而选D / not A but D: the letter after the turn.
    name: "rather_zh",
    build: (l) =>
      new RegExp(
        String
          .raw`(?:而是|而应该?是|而应选|而选|应当是|but\s+(?:rather\s+)?)${PRE}${
          group(l)
        }`,
        "g",
      ),
  },
  {
    // A heading "答案" / "Answer" with the letter on a line of its own below.
    name: "answer_heading",
    build: (l) =>
      new RegExp(
        String
          .raw`(?:^|\n)[ \t]*(?:#{1,6}[ \t]*|\*\*)?(?:最终答案|正确答案|答案|final answer|answer)(?:\*\*)?[ \t]*[:：]?[ \t]*(?:\*\*)?[ \t]*\n+[ \t]*${PRE}${
          group(l)
        }`,
        "gi",
      ),
  },
  {
    // 正确的一项是X / 正确的选项是X / 正确的是X / 正确选项为X
    name: "correct_is_zh",
    build: (l) =>
      new RegExp(
        String
          .raw`(?<!不)正确的?\s*(?:一项|选项|一个|项|答案)?\s*(?:应该是|应是|是|为|:)\s*${PRE}${
          group(l)
        }`,
        "g",
      ),
  },
  {
    // 选项X是正确的 / X是正确的 / X项正确 / X选项正确 / X是对的
    name: "option_correct_zh",
    build: (l) =>
      new RegExp(
        String
          .raw`(?:选项\s*)?[(\[]?${
          group(l)
        }[)\]]?\s*(?:选项|项)?\s*:?\s*(?:是|为)?\s*(?:正确|对)的?(?![吗么?？])`,
        "g",
      ),
  },
  {
    // 故选 / 本题选 / 应选 / 选择 / 选 (not 不选, not 选项)
    name: "choose_zh",
    build: (l) =>
      new RegExp(
        String
          .raw`(?<!不|可|落|误|错|别|勿|会|若|要)(?:选择|选定|选)(?!项)\s*(?:答案\s*)?[:\s*"“(\[]*${
          group(l)
        }`,
        "g",
      ),
  },
  {
    // The (correct|final) answer is (B) / Answer: C / answer would be B
    name: "answer_is_en",
    build: (l) =>
      new RegExp(
        String
          .raw`\banswer\s*(?:is|would be|should be|must be|will be|=|:)\s*(?:is\s*)?(?:probably\s+|likely\s+|clearly\s+|actually\s+|definitely\s+|indeed\s+|really\s+)?${PRE}${
          group(l)
        }`,
        "gi",
      ),
  },
  {
    // Option B is correct / B is the correct answer / (B) is right
    name: "option_correct_en",
    build: (l) =>
      new RegExp(
        String
          .raw`(?:\b(?:option|choice)\s*)?[(\[]?${
          group(l)
        }[)\]]?\s+is\s+(?:the\s+)?(?:correct|right|true|best)\b`,
        "gi",
      ),
  },
  {
    // The correct option is (c) / the right choice is B
    name: "option_is_en",
    build: (l) =>
      new RegExp(
        String
          .raw`\b(?:correct|right|best)\s+(?:option|choice)\s+(?:is|would be)\s*${PRE}${
          group(l)
        }`,
        "gi",
      ),
  },
  {
    // A hedge: "It's either A or C" (two letters: ambiguous, rule 5)
    name: "either_en",
    build: (l) => new RegExp(String.raw`\beither\s+${PRE}${group(l)}`, "gi"),
  },
  {
    // I choose B / I'd go with (C) / select option D
    name: "choose_en",
    build: (l) =>
      new RegExp(
        String
          .raw`\b(?:choose|select|pick|go with|opt for)\s*[:：]?\s*${PRE}${
          group(l)
        }`,
        "gi",
      ),
  },
];
