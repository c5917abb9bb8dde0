/**
 * Finds every number written in a (normalised) text, with its exact value
 * and span.
 *
 * @module
 */
import { fraction } from "mathjs";
import type { Fraction } from "../judge/rational.ts";
import { CHINESE_NUMERAL_PATTERN, parseChineseNumeral } from "./_chinese.ts";

/** One number found in the text. */
export interface NumberToken {
  start: number;
  end: number;
  value: Fraction;
  /** How it was written. */
  kind:
    | "plain"
    | "fraction"
    | "latex_frac"
    | "scientific"
    | "percent"
    | "chinese";
}

const NUM = String
  .raw`(?:\d{1,3}(?:(?:,|\{,\}|\\,)\d{3})+|\d+)(?:\.\d+)?|\.\d+`;
const TOKEN = new RegExp(
  String
    .raw`\\[dt]?frac\s*\{\s*(?<fn>-?(?:${NUM}))\s*\}\s*\{\s*(?<fd>-?(?:${NUM}))\s*\}` +
    String.raw`|(?<ms>-)?(?<mw>\d+)[ \t]+(?<mn>\d+)/(?<md>\d+)(?!\.?\d|\/)` +
    String.raw`|(?<sign>[-+])?(?<cur>[$¥€£]\s?)?(?<num>${NUM})` +
    String.raw`(?:\s?/\s?(?<den>\d+)(?!\.?\d))?` +
    String
      .raw`(?:[eE](?<e1>[-+]?\d+)(?![\d])|\s*(?:\\times|\\cdot|×|\*|x)\s*10\s*\^\s*\{?\s*(?<e2>[-+]?\d+)\s*\}?)?` +
    String
      .raw`(?<pct>\s?\\?%)?(?<cn>[万亿](?![零〇一二两三四五六七八九十百千]))?` +
    `|(?<zh>${CHINESE_NUMERAL_PATTERN})`,
  "g",
);

function plain(text: string): Fraction {
  return fraction(text.replace(/\{,\}|\\,|,/g, ""));
}

/** Scans a normalised text for numbers, left to right. */
export function scanNumbers(text: string): NumberToken[] {
  const out: NumberToken[] = [];
  const re = new RegExp(TOKEN.source, "g");
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const g = m.groups ?? {};
    let start = m.index;
    const end = start + m[0].length;
    try {
      if (g.fn !== undefined && g.fd !== undefined) {
        const den = plain(g.fd);
        if (den.n === 0n) continue;
        out.push({
          start,
          end,
          value: plain(g.fn).div(den),
          kind: "latex_frac",
        });
        continue;
      }
      if (g.mw !== undefined && g.mn !== undefined && g.md !== undefined) {
        // A mixed number "1 7/12" only when the fraction is proper.
        const frac = fraction(g.mn).div(fraction(g.md === "0" ? "1" : g.md));
        const before = text[start - 1];
        const binary = before !== undefined && /[A-Za-z0-9)\]}]/.test(before);
        if (g.md !== "0" && frac.compare(1) < 0 && !binary) {
          const value = fraction(g.mw).add(frac);
          out.push({
            start,
            end,
            value: g.ms === "-" ? value.neg() : value,
            kind: "fraction",
          });
          continue;
        }
        // Not a mixed number: rescan the two parts as separate tokens.
        re.lastIndex = start + (g.ms?.length ?? 0) + g.mw.length;
        const whole = fraction(g.mw);
        out.push({
          start: g.ms === "-" && !binary ? start : start + (g.ms?.length ?? 0),
          end: start + (g.ms?.length ?? 0) + g.mw.length,
          value: g.ms === "-" && !binary ? whole.neg() : whole,
          kind: "plain",
        });
        continue;
      }
      if (g.zh !== undefined) {
        // A lone 一 or 十 inside prose ("一步一步") is not a number worth taking.
        if (!/[零〇一二两三四五六七八九]/.test(g.zh) && !/十/.test(g.zh)) {
          continue;
        }
        if (g.zh.replace("负", "").length < 2) continue;
        const value = parseChineseNumeral(g.zh);
        if (value !== null) out.push({ start, end, value, kind: "chinese" });
        continue;
      }
      if (g.num === undefined) continue;
      let negative = g.sign === "-";
      if (g.sign !== undefined) {
        // A sign right after a digit, letter or bracket is a binary operator.
        const before = text[start - 1];
        if (before !== undefined && /[A-Za-z0-9)\]}]/.test(before)) {
          negative = false;
          start += 1;
        }
      }
      let value = plain(g.num);
      let kind: NumberToken["kind"] = "plain";
      if (g.den !== undefined) {
        const den = fraction(g.den);
        if (den.n === 0n) continue;
        value = value.div(den);
        kind = "fraction";
      }
      const exp = g.e1 ?? g.e2;
      if (exp !== undefined) {
        const e = Number(exp);
        if (Math.abs(e) > 400) continue;
        const p = fraction(10n ** BigInt(Math.abs(e)));
        value = e >= 0 ? value.mul(p) : value.div(p);
        kind = "scientific";
      }
      if (g.pct !== undefined) kind = "percent";
      if (g.cn === "万") value = value.mul(fraction(10_000n));
      if (g.cn === "亿") value = value.mul(fraction(100_000_000n));
      out.push({ start, end, value: negative ? value.neg() : value, kind });
    } catch {
      // A malformed token is skipped: extraction never throws.
    }
  }
  return out;
}
