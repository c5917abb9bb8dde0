/**
 * Finds every number written in a (normalised) text, with its exact value
 * and span.
 *
 * @module
 */
import { fraction } from "../math/rational.ts";
import type { Fraction } from "../math/rational.ts";
import { CHINESE_NUMERAL_PATTERN, parseChineseNumeral } from "./_chinese.ts";

/** How a number was written. */
export type NumberKind =
  | "plain"
  | "fraction"
  | "latex_frac"
  | "scientific"
  | "percent"
  | "chinese";

/** One number found in the text. */
export interface NumberToken {
  start: number;
  end: number;
  value: Fraction;
  /** How it was written. */
  kind: NumberKind;
}

/**
 * Thousands grouping. Commas, `{,}` and LaTeX `\,` group as before. A
 * single space (also a thin, narrow no-break or no-break space, which
 * `normalizeChars` turns into one) groups only this shape: a head of 1–3
 * digits not starting with 0, then one or more groups of exactly three
 * digits, each after exactly one space and not followed by another digit.
 * So `1 234 567` is 1234567 while `3 45`, `12 3456`, `1234 567`, `0 123`
 * and `1  234` (two spaces) stay separate numbers.
 */
const GROUPED = String
  .raw`\d{1,3}(?:(?:,|\{,\}|\\,)\d{3})+|[1-9]\d{0,2}(?: \d{3}(?!\d))+|[1-9]\d?(?:,\d{2})+,\d{3}(?!\d)|[1-9]\d{0,2}(?:['’]\d{3})+(?!\d)|[1-9]\d{0,2}(?:\.\d{3}){2,}(?!\d|\.\d)`;
const NUM = String.raw`(?:${GROUPED}|\d+)(?:\.\d+)?|\.\d+`;
/** A fraction argument: `{3}`, `{-3}`, `{ - 1\,234 }`, or one bare digit (`\frac34`). */
const FRAC_ARG = (name: string) =>
  String.raw`(?:\{\s*(?<${name}>-?\s*(?:${NUM}))\s*\}|\s*(?<${name}1>\d))`;
const TOKEN = new RegExp(
  // A sign before `\frac` (also `- \frac`, `-\left(\frac…\right)`).
  String.raw`(?<fp>(?<fs>[-+])\s*(?:\\left\s*\(\s*|\(\s*)?)?` +
    String.raw`\\[dtc]?frac\s*${FRAC_ARG("fn")}\s*${FRAC_ARG("fd")}` +
    String.raw`|(?<ms>-)?(?<mw>\d+)[ \t]+(?<mn>\d+)/(?<md>\d+)(?!\.?\d|\/)` +
    String.raw`|(?<sign>[-+])?(?<cur>[$¥€£]\s?)?(?<num>${NUM})` +
    String.raw`(?:\s?/\s?(?<den>\d+)(?!\.?\d))?` +
    String
      .raw`(?:[eE](?<e1>[-+]?\d+)(?![\d])|\s*(?:\\times|\\cdot|×|\*|x|·)\s*10\s*(?:\^\s*\{?\s*(?<e2>[-+]?\d+)\s*\}?|(?<e3>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)))?` +
    String
      .raw`(?<pct>\s?\\?%)?(?:\s?(?<cn>[万亿])(?![零〇一二两三四五六七八九十百千]))?` +
    String
      .raw`(?<scale>\s(?:[Tt]housand|[Mm]illion|[Bb]illion|[Tt]rillion)\b)?` +
    `|(?<zh>${CHINESE_NUMERAL_PATTERN})`,
  "g",
);

function plain(text: string): Fraction {
  // 1.234.567 (dots group thousands where there are two or more groups).
  if (/^[-+]?\d{1,3}(?:\.\d{3}){2,}$/.test(text.trim())) {
    return fraction(text.replaceAll(".", "").trim());
  }
  return fraction(text.replace(/\{,\}|\\,|,|['’]|\s/g, ""));
}

/**
 * Whether a sign at `at` is a binary operator. Right after a digit, letter
 * or closing bracket it is (`2-\frac{1}{2}`, `x-3`); with spaces on both
 * sides it is when a digit or closing bracket comes before (`5 - \frac12`),
 * but not after a word (`is - \frac34`) or an opening bracket.
 */
function binarySign(text: string, at: number, spacedAfter: boolean): boolean {
  const before = text[at - 1];
  if (before === undefined) return false;
  if (/[A-Za-z0-9)\]}]/.test(before)) return true;
  if (!spacedAfter || !/\s/.test(before)) return false;
  const last = /(\S)\s*$/.exec(text.slice(Math.max(0, at - 200), at));
  return last !== null && /[0-9)\]}]/.test(last[1] ?? "");
}

/** Number words that scale the number before them ("2.08 million"). */
const SCALES: Record<string, bigint> = {
  thousand: 1_000n,
  million: 1_000_000n,
  billion: 1_000_000_000n,
  trillion: 1_000_000_000_000n,
};

/** Unicode superscript digits and signs as the exponent they write ("⁻⁴" → "-4"). */
const SUPERSCRIPT: Record<string, string> = {
  "⁰": "0",
  "¹": "1",
  "²": "2",
  "³": "3",
  "⁴": "4",
  "⁵": "5",
  "⁶": "6",
  "⁷": "7",
  "⁸": "8",
  "⁹": "9",
  "⁻": "-",
  "⁺": "+",
};

function superscriptNumber(text: string): string {
  return [...text].map((ch) => SUPERSCRIPT[ch] ?? "").join("");
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
      const fn = g.fn ?? g.fn1, fd = g.fd ?? g.fd1;
      if (fn !== undefined && fd !== undefined) {
        const den = plain(fd);
        if (den.n === 0n) continue;
        let value = plain(fn).div(den);
        if (g.fs !== undefined && g.fp !== undefined) {
          const spaced = /^[-+]\s/.test(g.fp);
          if (binarySign(text, start, spaced)) start += g.fp.length;
          else if (g.fs === "-") value = value.neg();
        }
        out.push({ start, end, value, kind: "latex_frac" });
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
      const exp = g.e1 ?? g.e2 ??
        (g.e3 === undefined ? undefined : superscriptNumber(g.e3));
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
      if (g.scale !== undefined) {
        value = value.mul(fraction(SCALES[g.scale.trim().toLowerCase()]!));
      }
      out.push({ start, end, value: negative ? value.neg() : value, kind });
    } catch {
      // A malformed token is skipped: extraction never throws.
    }
  }
  return mergeCompounds(text, out);
}

/**
 * Numbers written in two tokens, joined: a LaTeX mixed number (`2\tfrac{1}{4}`
 * is 9/4) and Chinese money in yuan, jiao and fen (`23 元 5 角` is 23.5).
 */
function mergeCompounds(text: string, tokens: NumberToken[]): NumberToken[] {
  const out: NumberToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    const gap = next === undefined ? "" : text.slice(t.end, next.start);
    if (
      next !== undefined && t.kind === "plain" && t.value.d === 1n &&
      next.kind === "latex_frac" && /^\s*$/.test(gap) &&
      next.value.s > 0 && next.value.compare(1) < 0 &&
      text.slice(next.start, next.end).startsWith("\\")
    ) {
      const value = t.value.s < 0
        ? t.value.sub(next.value)
        : t.value.add(next.value);
      out.push({ start: t.start, end: next.end, value, kind: "fraction" });
      i++;
      continue;
    }
    if (next !== undefined && t.value.s >= 0 && /^\s*元\s*$/.test(gap)) {
      let value = t.value;
      let end = next.end;
      let j = i + 1;
      for (const [unit, div] of [["角", 10n], ["分", 100n]] as const) {
        const u = tokens[j];
        if (u === undefined || u.value.d !== 1n) break;
        const after = text.slice(u.end, u.end + 2);
        if (!new RegExp(`^\\s*${unit}`).test(after)) continue;
        value = value.add(u.value.div(fraction(div)));
        end = u.end;
        j++;
      }
      if (j > i + 1) {
        out.push({ start: t.start, end, value, kind: "plain" });
        i = j - 1;
        continue;
      }
    }
    out.push(t);
  }
  return out;
}
