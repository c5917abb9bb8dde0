/**
 * Reads format instructions from a prompt the way a model would: bare
 * number, no commas, chain of thought, answer markers, \boxed{}, JSON,
 * decimals, fractions, and the style of few-shot examples.
 *
 * @module
 */
import type { SimMessage } from "./types.ts";

/** What the prompt asks the answer to look like. */
export interface Instructions {
  /** Only the answer, no words ("output only the number", "只输出数字"). */
  bare: boolean;
  /** No thousands separators ("without commas"). */
  noCommas: boolean;
  /** Show working ("step by step", "一步一步", "Final answer:" markers). */
  cot: boolean;
  /** Wrap the answer in \boxed{}. */
  boxed: boolean;
  /** The marker the final line must start with, e.g. "Final answer: ". */
  marker: string | null;
  /** Answer as JSON {"answer": ...}. */
  json: boolean;
  /** Give a fraction a/b rather than a decimal. */
  fraction: boolean;
  /** Round to this many decimals, when asked. */
  decimals: number | null;
  /** The prompt (last user message) is in Chinese. */
  chinese: boolean;
  /** Few-shot answer style: the last example answer around its number. */
  fewShot: {
    prefix: string;
    suffix: string;
    /** The example shows working before its answer line. */
    multiline: boolean;
    /** The example's working is one line of sentences ("a = b. c = d."). */
    inline: boolean;
  } | null;
}

const CJK = /[\u4e00-\u9fff]/;
const BARE =
  /\b(only (the |a |your )?(final )?(number|answer|result|integer|digits)|just (the |a )?(number|answer|result)|(number|answer) only|nothing else|no (other )?(words|explanation|text)|without (any )?(explanation|words|working))\b|只(输出|回答|给出|写)(最终)?(数字|答案|结果)|仅(输出|回答|给出)|不要(解释|过程|任何其他)/i;
const NO_COMMAS =
  /without (using )?(any )?commas|no commas|don't use commas|do not use commas|without (thousands )?separators|不要(使用)?(逗号|千位分隔符)/i;
const COT =
  /step[- ]by[- ]step|show (your|the) (work|working|steps)|think (it )?through|reason(ing)? (first|carefully)|一步一步|逐步|分步|写出(计算)?过程|详细(的)?过程/i;
const WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  一: 1,
  两: 2,
  二: 2,
  三: 3,
  四: 4,
};

function markerOf(text: string): string | null {
  if (/final answer\s*[:：]/i.test(text)) return "Final answer: ";
  if (/最终答案\s*[:：]/.test(text)) return "最终答案：";
  if (/答案\s*[:：]/.test(text)) return "答案：";
  if (/####/.test(text)) return "#### ";
  const m = /\b(Answer|ANSWER|answer)\s*:/.exec(text);
  return m ? `${m[1]}: ` : null;
}

function fewShotOf(
  messages: readonly SimMessage[],
): Instructions["fewShot"] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "tool" || m.tool_calls?.length) return null;
    if (m.role !== "assistant" || !m.content) continue;
    const lines = m.content.trim().split("\n").filter((l) => l.trim());
    const last = lines[lines.length - 1] ?? "";
    const nums = [...last.matchAll(/-?\d[\d,]*(?:\.\d+)?(?:\/\d+)?/g)];
    const hit = nums[nums.length - 1];
    if (!hit) return null;
    return {
      prefix: last.slice(0, hit.index),
      suffix: last.slice(hit.index + hit[0].length),
      multiline: lines.length > 1,
      inline: lines.length === 2,
    };
  }
  return null;
}

/**
 * Reads the instructions of a request: system messages plus the last user
 * message, and the last assistant example when there are few-shot turns.
 */
export function readInstructions(
  messages: readonly SimMessage[],
  system: string,
  question: string,
): Instructions {
  const text = `${system}\n${question}`;
  const dec = /(?:to|round(?:ed)? to|with)\s+(\d|one|two|three|four)\s+decimal/i
    .exec(text) ??
    /保留\s*(\d|一|两|二|三|四)\s*位小数/.exec(text);
  const decimals = dec
    ? (WORDS[dec[1]!.toLowerCase()] ?? Number(dec[1]))
    : null;
  const fewShot = fewShotOf(messages);
  return {
    bare: BARE.test(text),
    noCommas: NO_COMMAS.test(text),
    cot: COT.test(text) || (fewShot?.multiline ?? false),
    boxed: /\\boxed/.test(text),
    marker: markerOf(text),
    json: /\bJSON\b/.test(text) && /"answer"/.test(text),
    fraction:
      /\b(as a|in) (simplified |reduced |lowest )?fraction|最简分数|用分数/i
        .test(text),
    decimals,
    chinese: CJK.test(question),
    fewShot,
  };
}
