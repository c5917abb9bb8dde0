/**
 * Chinese numerals (一百一十七, 三千零五, 一亿二千万, 三点五, 负十二) to
 * exact rationals. Hand-written: no maintained npm library parses these to
 * exact BigInt values with 亿 and decimals.
 *
 * @module
 */
import { fraction } from "../math/rational.ts";
import type { Fraction } from "../math/rational.ts";

const DIGITS: Record<string, bigint> = {
  "零": 0n,
  "〇": 0n,
  "一": 1n,
  "二": 2n,
  "两": 2n,
  "三": 3n,
  "四": 4n,
  "五": 5n,
  "六": 6n,
  "七": 7n,
  "八": 8n,
  "九": 9n,
};
const SMALL_UNITS: Record<string, bigint> = {
  "十": 10n,
  "百": 100n,
  "千": 1000n,
};

/** Characters that can appear in a Chinese numeral. */
export const CHINESE_NUMERAL_PATTERN =
  "负?[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?";

/** Parses the integer part (no sign, no 点). Returns null when malformed. */
function parseInteger(text: string): bigint | null {
  if (!/[十百千万亿]/.test(text)) {
    // A plain digit sequence: 一二三 = 123.
    let v = 0n;
    for (const ch of text) {
      const d = DIGITS[ch];
      if (d === undefined) return null;
      v = v * 10n + d;
    }
    return v;
  }
  let total = 0n, section = 0n, digit = 0n;
  for (const ch of text) {
    const d = DIGITS[ch];
    if (d !== undefined) {
      digit = d;
      continue;
    }
    const unit = SMALL_UNITS[ch];
    if (unit !== undefined) {
      // 十 at the start of a section means 一十.
      section += (digit === 0n ? 1n : digit) * unit;
      digit = 0n;
    } else if (ch === "万") {
      section = (section + digit) * 10_000n;
      total += section;
      section = 0n;
      digit = 0n;
    } else if (ch === "亿") {
      total = (total + section + digit) * 100_000_000n;
      section = 0n;
      digit = 0n;
    } else return null;
  }
  return total + section + digit;
}

/**
 * Parses a Chinese numeral to an exact fraction, or null when it is not one.
 */
export function parseChineseNumeral(text: string): Fraction | null {
  let body = text;
  let negative = false;
  if (body.startsWith("负")) {
    negative = true;
    body = body.slice(1);
  }
  const [intText = "", fracText] = body.split("点");
  const int = intText === "" ? 0n : parseInteger(intText);
  if (int === null) return null;
  let value = fraction(int);
  if (fracText !== undefined) {
    let digits = "";
    for (const ch of fracText) {
      const d = DIGITS[ch];
      if (d === undefined) return null;
      digits += d.toString();
    }
    value = value.add(fraction(`0.${digits}`));
  }
  return negative ? value.neg() : value;
}
