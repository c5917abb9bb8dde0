/**
 * Questions written in words that the arithmetic skill recognises:
 * percentages, ratios and simple word problems (change, unit price,
 * discount, speed, distance, stock), in English and Chinese. Each pattern
 * reads the numbers from the text and builds the expression a careful
 * reader would compute. Patterns are compiled once (simChat stays fast).
 *
 * @module
 */
import { type ArithTask, bin, type Node, num } from "./_arith_ast.ts";

/** A number as written (after thousands separators are removed). */
const N = String.raw`(\d+(?:\.\d+)?)`;

interface Pattern {
  source: ArithTask["source"];
  re: RegExp;
  build(m: RegExpExecArray): Node;
}

const g = (m: RegExpExecArray, i: number): Node => num(m[i]!);
const pct = (p: Node): Node => bin("/", p, num("100"));

function p(
  source: ArithTask["source"],
  pattern: string,
  build: (m: RegExpExecArray) => Node,
  flags = "",
): Pattern {
  return { source, re: new RegExp(pattern, flags), build };
}

const raw = String.raw;

/** Tried in order; the first match wins. */
const PATTERNS: readonly Pattern[] = [
  // Percent change: "percent change from 50 to 65", "goes from 58 to 13.34. What is the percent change?"
  p(
    "percent",
    raw`percent(?:age)?\s+(?:change|increase|decrease|difference)\s+from\s+${N}\s+to\s+${N}`,
    (m) => bin("*", bin("/", bin("-", g(m, 2), g(m, 1)), g(m, 1)), num("100")),
    "i",
  ),
  p(
    "percent",
    raw`from\s+${N}\s+to\s+${N}[^%]{0,80}?percent(?:age)?\s+(?:change|increase|decrease)`,
    (m) => bin("*", bin("/", bin("-", g(m, 2), g(m, 1)), g(m, 1)), num("100")),
    "i",
  ),
  p(
    "percent",
    raw`从\s*${N}\s*(?:变为|变成|变到|增加到|增长到|上涨到|涨到|下降到|降到|减少到|跌到|到)\s*${N}.*百分`,
    (m) => bin("*", bin("/", bin("-", g(m, 2), g(m, 1)), g(m, 1)), num("100")),
  ),
  // "15% of 200", "200 的 15%", "200 的百分之 15"
  p(
    "percent",
    raw`${N}\s*%\s*(?:of|的)\s*${N}`,
    (m) => bin("*", pct(g(m, 1)), g(m, 2)),
    "i",
  ),
  p(
    "percent",
    raw`${N}\s*的\s*${N}\s*%`,
    (m) => bin("*", pct(g(m, 2)), g(m, 1)),
  ),
  p(
    "percent",
    raw`${N}\s*的\s*百分之\s*${N}`,
    (m) => bin("*", pct(g(m, 2)), g(m, 1)),
  ),
  // "80 is what percent of 320", "80 是 320 的百分之几", "what percent of 320 is 80"
  p(
    "percent",
    raw`${N}\s+(?:is|as)\s+(?:what|a)\s+percent(?:age)?\s+of\s+${N}`,
    (m) => bin("*", bin("/", g(m, 1), g(m, 2)), num("100")),
    "i",
  ),
  p(
    "percent",
    raw`${N}\s*是\s*${N}\s*的百分之几`,
    (m) => bin("*", bin("/", g(m, 1), g(m, 2)), num("100")),
  ),
  p(
    "percent",
    raw`what\s+percent(?:age)?\s+of\s+${N}\s+is\s+${N}`,
    (m) => bin("*", bin("/", g(m, 2), g(m, 1)), num("100")),
    "i",
  ),
  // Ratios: "the ratio 3816 : 8109 as a fraction", "把比 3816 : 8109 化成最简分数"
  p(
    "ratio",
    raw`ratio\s+(?:of\s+)?${N}\s*(?::|to)\s*${N}`,
    (m) => bin("/", g(m, 1), g(m, 2)),
    "i",
  ),
  p("ratio", raw`比\s*${N}\s*[:：]\s*${N}`, (m) => bin("/", g(m, 1), g(m, 2))),
  // Change: count × price, paid.
  p(
    "word_problem",
    raw`buys?\s+${N}\b.*?(?:at|for)\s+\$?${N}\s*(?:yuan|dollars?|euros?)?\s*each.*?pays?\s+(?:with\s+)?\$?${N}.*?change`,
    (m) => bin("-", g(m, 3), bin("*", g(m, 1), g(m, 2))),
    "i",
  ),
  p(
    "word_problem",
    raw`costs?\s+\$?${N}.*?buys?\s+${N}\b.*?pays?\s+(?:with\s+)?(?:a\s+)?\$?${N}.*?change`,
    (m) => bin("-", g(m, 3), bin("*", g(m, 1), g(m, 2))),
    "i",
  ),
  p(
    "word_problem",
    raw`买了?\s*${N}\s*[个只支本件斤袋瓶盒条张把双台辆杯块枝].*?每[个只支本件斤袋瓶盒条张把双台辆杯块枝]\s*${N}\s*元.*?付了?\s*${N}\s*元.*?找`,
    (m) => bin("-", g(m, 3), bin("*", g(m, 1), g(m, 2))),
  ),
  p(
    "word_problem",
    raw`${N}\s*元.*?买了?\s*${N}\s*[个只支本件斤袋瓶盒条张把双台辆杯块枝].*?付了?\s*${N}\s*元.*?找`,
    (m) => bin("-", g(m, 3), bin("*", g(m, 1), g(m, 2))),
  ),
  // Unit price: "4 kg of rice cost 36 yuan. What is the price per kg?"
  p(
    "word_problem",
    raw`${N}\s*(kg|kilograms?|pounds?|lbs?|items?|pieces?|boxes?)\s+of\s+.*?cost\s+\$?${N}.*?(?:price\s+)?per\s+\2`,
    (m) => bin("/", g(m, 3), g(m, 1)),
    "i",
  ),
  p(
    "word_problem",
    raw`${N}\s*(千克|公斤|斤|个|件|箱).*?共\s*${N}\s*元.*?每\2`,
    (m) => bin("/", g(m, 3), g(m, 1)),
  ),
  // Discount: "costs 200 yuan and is on sale at 15% off"
  p(
    "word_problem",
    raw`costs?\s+\$?${N}.*?${N}\s*%\s*off`,
    (m) => bin("*", g(m, 1), pct(bin("-", num("100"), g(m, 2)))),
    "i",
  ),
  p(
    "word_problem",
    raw`原价\s*${N}\s*元.*?(?:优惠|便宜|降价)\s*${N}\s*%`,
    (m) => bin("*", g(m, 1), pct(bin("-", num("100"), g(m, 2)))),
  ),
  // Speed: "travels 6480 km in 9 hours ... speed"; "9 小时行了 6480 千米 ... 速度"
  p(
    "word_problem",
    raw`travels?\s+${N}\s*(?:km|kilometers?|miles?|m|meters?)\s+in\s+${N}\s*(?:hours?|h|minutes?|seconds?)\b.*?speed`,
    (m) => bin("/", g(m, 1), g(m, 2)),
    "i",
  ),
  p(
    "word_problem",
    raw`${N}\s*(?:小时|分钟|秒)\s*(?:行了|走了|行驶了|跑了)\s*${N}\s*(?:千米|公里|米).*?速度`,
    (m) => bin("/", g(m, 2), g(m, 1)),
  ),
  // Distance: "moves at 66 km/h for 2 hours"; "以每小时 66 千米的速度行驶了 2 小时"
  p(
    "word_problem",
    raw`at\s+${N}\s*(?:km/h|kph|mph|km per hour|miles per hour)\s+for\s+${N}\s*(?:hours?|h)\b`,
    (m) => bin("*", g(m, 1), g(m, 2)),
    "i",
  ),
  p(
    "word_problem",
    raw`每小时\s*${N}\s*(?:千米|公里).*?(?:行驶|行|走|跑)了?\s*${N}\s*小时`,
    (m) => bin("*", g(m, 1), g(m, 2)),
  ),
  // Stock: "holds 640 boxes. It ships out 10 boxes and receives 93 boxes."
  p(
    "word_problem",
    raw`(?:holds|has|had|contains)\s+${N}\b.*?(?:ships out|sells|sold|gives away|uses|removes|loses)\s+${N}\b.*?(?:receives|buys|gets|adds|takes in)\s+${N}\b`,
    (m) => bin("+", bin("-", g(m, 1), g(m, 2)), g(m, 3)),
    "i",
  ),
  p(
    "word_problem",
    raw`有\s*${N}.*?(?:运出|卖出|卖了|用去|用了|拿走)\s*${N}.*?(?:运进|买进|又买|运来|进了|又进)\s*${N}`,
    (m) => bin("+", bin("-", g(m, 1), g(m, 2)), g(m, 3)),
  ),
  // Totals: "每个 3 元，买 5 个，一共多少"; "5 boxes with 12 pencils each ... in total"
  p(
    "word_problem",
    raw`每\S{0,2}\s*${N}\s*\S{0,2}.*?(?:买|有|共)\s*${N}.*?(?:一共|总共|共)`,
    (m) => bin("*", g(m, 1), g(m, 2)),
  ),
  p(
    "word_problem",
    raw`${N}\s+[a-z]+\s+(?:with|of|has|have|holding|containing|contains?)\s+${N}\b.*?(?:in total|altogether|in all|total)`,
    (m) => bin("*", g(m, 1), g(m, 2)),
    "i",
  ),
];

/**
 * The task a worded question poses, or null when no pattern fits.
 *
 * @param s Normalised question text.
 */
export function patternTask(s: string): ArithTask | null {
  for (const { source, re, build } of PATTERNS) {
    const m = re.exec(s);
    if (m) return { expr: build(m), fractions: source === "ratio", source };
  }
  return null;
}
