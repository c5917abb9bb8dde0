/**
 * The sim's mistake model for code: small token-level edits of a correct
 * solution's text (a flipped comparison, an off-by-one constant, a swapped
 * `+`/`-`, a swapped `and`/`or`), a loop that never ends on large input,
 * and syntax errors. Written by hand on the source text (strings and
 * comments skipped) rather than with a parser: these are the sim's own
 * slips (plus `==`/`!=` flips), not the suite's mutation testing (which uses real parsers in
 * `../mutate/`), and the edits keep the code syntactically valid.
 *
 * @module
 */
import {
  pick,
  pickWeighted,
  type Uniform,
} from "../../../providers/sim/rng.ts";
import type { SimLanguage } from "./_bank.ts";

/** One possible edit: replace code[start, end) by `text`. */
interface Site {
  kind: "comparison" | "equality" | "bound" | "arithmetic" | "logic";
  start: number;
  end: number;
  text: string;
}

const PY_UNARY_AFTER = new Set([
  "return",
  "in",
  "and",
  "or",
  "not",
  "if",
  "else",
  "elif",
  "yield",
  "while",
  "for",
  "lambda",
]);
const JS_UNARY_AFTER = new Set([
  "return",
  "typeof",
  "case",
  "in",
  "of",
  "yield",
  "void",
  "else",
]);

/** Index just past a string or comment starting at i, or -1 if none starts there. */
function skipLiteral(code: string, i: number, language: SimLanguage): number {
  const c = code[i]!;
  if (language === "python" && c === "#") {
    const nl = code.indexOf("\n", i);
    return nl < 0 ? code.length : nl;
  }
  if (language === "javascript" && c === "/") {
    if (code[i + 1] === "/") {
      const nl = code.indexOf("\n", i);
      return nl < 0 ? code.length : nl;
    }
    if (code[i + 1] === "*") {
      const end = code.indexOf("*/", i + 2);
      return end < 0 ? code.length : end + 2;
    }
    return -1;
  }
  const quotes = language === "python" ? "'\"" : "'\"`";
  if (!quotes.includes(c)) return -1;
  if (language === "python" && code.startsWith(c.repeat(3), i)) {
    const end = code.indexOf(c.repeat(3), i + 3);
    return end < 0 ? code.length : end + 3;
  }
  let j = i + 1;
  while (j < code.length && code[j] !== c) {
    if (code[j] === "\\") j++;
    else if (code[j] === "\n" && c !== "`") break;
    j++;
  }
  return Math.min(code.length, j + 1);
}

function prevWord(code: string, i: number): string {
  const m = /([A-Za-z_$][\w$]*)\s*$/.exec(code.slice(Math.max(0, i - 40), i));
  return m ? m[1]! : "";
}

/** Whether an operator at i follows an operand (so it is binary). */
function afterOperand(code: string, i: number, language: SimLanguage): boolean {
  let j = i - 1;
  while (j >= 0 && (code[j] === " " || code[j] === "\t")) j--;
  if (j < 0) return false;
  const c = code[j]!;
  if (c === ")" || c === "]") return true;
  if (!/[\w$]/.test(c)) return false;
  if (/\d[eE]$/.test(code.slice(Math.max(0, i - 2), i))) return false;
  const word = prevWord(code, j + 1);
  const unary = language === "python" ? PY_UNARY_AFTER : JS_UNARY_AFTER;
  return !unary.has(word);
}

function sitesOf(code: string, language: SimLanguage): Site[] {
  const sites: Site[] = [];
  let i = 0;
  while (i < code.length) {
    const skip = skipLiteral(code, i, language);
    if (skip >= 0) {
      i = skip;
      continue;
    }
    const c = code[i]!, next = code[i + 1] ?? "", prev = code[i - 1] ?? "";
    if ((c === "=" || c === "!") && next === "=" && !"=!<>".includes(prev)) {
      // == ↔ != (and === ↔ !==): rarer than an off-by-one, but realistic.
      const strict = code[i + 2] === "=";
      const op = code.slice(i, i + (strict ? 3 : 2));
      sites.push({
        kind: "equality",
        start: i,
        end: i + op.length,
        text: (c === "=" ? "!" : "=") + op.slice(1),
      });
      i += op.length;
      continue;
    }
    if (c === "<" || c === ">") {
      const shift = next === c || prev === c;
      const arrow = c === ">" && (prev === "-" || prev === "=");
      if (!shift && !arrow) {
        if (next === "=") {
          sites.push({ kind: "comparison", start: i, end: i + 2, text: c });
          i += 2;
          continue;
        }
        sites.push({ kind: "comparison", start: i, end: i + 1, text: c + "=" });
      }
    } else if ((c === "+" || c === "-") && next !== c && prev !== c) {
      if (next !== ">" && afterOperand(code, i, language)) {
        sites.push({
          kind: "arithmetic",
          start: i,
          end: i + 1,
          text: c === "+" ? "-" : "+",
        });
      }
    } else if (/[0-2]/.test(c) && !/[\w$.]/.test(prev) && !/[\w.]/.test(next)) {
      sites.push({
        kind: "bound",
        start: i,
        end: i + 1,
        text: String(c === "0" ? 1 : Number(c) + (prev === "-" ? 1 : -1)),
      });
    } else if (language === "javascript" && (c === "&" || c === "|")) {
      if (next === c && code[i + 2] !== "=") {
        sites.push({
          kind: "logic",
          start: i,
          end: i + 2,
          text: c === "&" ? "||" : "&&",
        });
        i += 2;
        continue;
      }
    } else if (language === "python" && /[ao]/.test(c) && !/[\w$]/.test(prev)) {
      const m = /^(and|or)\b/.exec(code.slice(i, i + 4));
      if (m) {
        sites.push({
          kind: "logic",
          start: i,
          end: i + m[1]!.length,
          text: m[1] === "and" ? "or" : "and",
        });
      }
    }
    i++;
  }
  return sites;
}

/**
 * A mutant of `code`: one realistic slip, or null when no edit applies.
 * The edit is picked by kind (comparisons and bounds most often), then by
 * place, so the same rng gives the same mutant.
 */
export function mutateCode(
  code: string,
  language: SimLanguage,
  rng: Uniform,
): string | null {
  const sites = sitesOf(code, language);
  if (!sites.length) return null;
  const weights: Partial<Record<Site["kind"], number>> = {};
  const base = {
    comparison: 0.35,
    bound: 0.3,
    arithmetic: 0.25,
    equality: 0.1,
    logic: 0.1,
  };
  for (const s of sites) weights[s.kind] = base[s.kind];
  const kind = pickWeighted(rng, weights);
  const site = pick(rng, sites.filter((s) => s.kind === kind));
  return code.slice(0, site.start) + site.text + code.slice(site.end);
}

/** Splits a parameter list at top-level commas. */
export function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** A parameter: its name and whether it holds a sequence (list, string, map). */
export interface Param {
  name: string;
  sequence: boolean;
}

/**
 * The parameters of a signature, with whether each is a sequence (read
 * from the Python annotations; JavaScript signatures are untyped, so the
 * Python signature is passed for both languages).
 */
export function paramsOf(pythonSignature: string): Param[] {
  const open = pythonSignature.indexOf("(");
  const close = pythonSignature.lastIndexOf(")");
  if (open < 0 || close < open) return [];
  return topLevelParts(pythonSignature.slice(open + 1, close)).map((p) => {
    const [name = "", type = ""] = p.replace(/=.*$/, "").split(":");
    return {
      name: name.replace(/^\*+/, "").trim(),
      sequence: /^\s*(list|str|dict|tuple|set)\b/.test(type),
    };
  }).filter((p) => /^[A-Za-z_]\w*$/.test(p.name));
}

/** Index of the line after the entry function's header, or -1. */
function headerEnd(lines: string[], entry: string, language: SimLanguage) {
  const start = lines.findIndex((l) =>
    language === "python"
      ? l.startsWith(`def ${entry}(`)
      : l.startsWith(`function ${entry}(`)
  );
  if (start < 0) return -1;
  for (let i = start; i < lines.length; i++) {
    const t = lines[i]!.trimEnd();
    if (language === "python" ? t.endsWith(":") : t.endsWith("{")) {
      return i + 1;
    }
  }
  return -1;
}

/**
 * The code with a loop at the top of the entry function that never ends
 * once the input is large (more than 600 elements in its sequences):
 * small tests pass, the large-input test times out. Null when the header
 * is not found or the function takes only numbers (where "large" cannot
 * be told from the signature).
 */
export function slowOnLargeInput(
  code: string,
  entry: string,
  params: readonly Param[],
  language: SimLanguage,
): string | null {
  const lines = code.split("\n");
  const at = headerEnd(lines, entry, language);
  const seqs = params.filter((p) => p.sequence).map((p) => p.name);
  if (at < 0 || !seqs.length) return null;
  const indent = /^\s*/.exec(lines[at] ?? "")?.[0] || "    ";
  const guard = language === "python"
    ? [
      `${indent}work = ${seqs.map((s) => `len(${s})`).join(" + ")}`,
      `${indent}while work > 600:  # shrink the input until it fits`,
      `${indent}    work = work - 0`,
    ]
    : [
      `${indent}let work = ${seqs.map((s) => `${s}.length`).join(" + ")};`,
      `${indent}while (work > 600) work = work - 0; // shrink the input until it fits`,
    ];
  lines.splice(at, 0, ...guard);
  return lines.join("\n");
}

/**
 * The code with a syntax error: the header's colon (Python) or the final
 * brace (JavaScript) left out, or the last closing parenthesis dropped.
 */
export function breakSyntax(
  code: string,
  language: SimLanguage,
  rng: Uniform,
): string {
  if (rng() < 0.5) {
    const paren = code.lastIndexOf(")");
    if (paren >= 0) return code.slice(0, paren) + code.slice(paren + 1);
  }
  if (language === "python") {
    return code.replace(/^(def [^\n]*?):[ \t]*$/m, "$1");
  }
  const brace = code.lastIndexOf("}");
  return brace < 0 ? code + " {" : code.slice(0, brace) + code.slice(brace + 1);
}
