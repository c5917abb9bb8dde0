/**
 * Reads a list of eigenvalues as models write them: decimals, fractions,
 * `\sqrt{}` forms, `a \pm b\sqrt{c}`, `\lambda_1 = …` labels, sets in
 * braces and multiplicity notes ("(multiplicity 2)", "(twice)").
 *
 * Written by hand: LaTeX is rewritten to a plain arithmetic expression
 * (checked to hold only numbers, operators and `sqrt`), which
 * `evaluateReal` reads as mathjs' `evaluate` would.
 *
 * @module
 */
import { evaluateReal } from "../math/expr.ts";
import { parseEntry } from "./matrix_parse.ts";

const WORD_COUNT: Record<string, number> = {
  twice: 2,
  double: 2,
  thrice: 3,
  triple: 3,
};

/** Top-level splits on commas, semicolons and "and" (braces respected). */
function splitItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0, cur = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "{" || ch === "(" || ch === "[") depth++;
    if (ch === "}" || ch === ")" || ch === "]") depth--;
    if (depth <= 0 && (ch === "," || ch === ";")) {
      items.push(cur);
      cur = "";
      continue;
    }
    cur += ch;
  }
  items.push(cur);
  return items.flatMap((s) => s.split(/\s+(?:and|\\text\{\s*and\s*\})\s+/))
    .map((s) => s.trim()).filter((s) => s !== "");
}

function toExpression(latex: string): string | null {
  let s = latex;
  for (let k = 0; k < 5; k++) {
    s = s.replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, "(($1)/($2))")
      .replace(/\\sqrt\s*\{([^{}]*)\}/g, "sqrt($1)");
  }
  s = s.replace(/\\sqrt\s*(\d+)/g, "sqrt($1)")
    .replace(/√\s*\(?(\d+)\)?/g, "sqrt($1)")
    .replace(/\\(?:cdot|times)/g, "*")
    .replace(/\\left|\\right|\\,|\\;|\\!/g, "")
    .replace(/[{]/g, "(").replace(/[}]/g, ")")
    .trim();
  if (s === "" || !/^[\d\s+\-*/().]*$/.test(s.replace(/sqrt/g, ""))) {
    return null;
  }
  return s;
}

/** One value as an exact rational string or a 15-significant-digit decimal. */
function valueOf(item: string): string | null {
  const exact = parseEntry(item);
  if (exact !== null) return exact;
  const expr = toExpression(item);
  if (expr === null) return null;
  try {
    return String(Number(evaluateReal(expr).toPrecision(15)));
  } catch {
    return null;
  }
}

/**
 * Parses an eigenvalue list. Returns null when any item cannot be read
 * (a half-read list would be judged as a wrong multiset).
 */
export function parseEigenvalueList(text: string): string[] | null {
  let body = text.replace(/\$/g, "").replace(/−/g, "-");
  body = body.replace(/\\(?:text|mathrm|textbf)\s*\{([^{}]*)\}/g, " $1 ");
  body = body.replace(/\\(?:left|right)?\\?[{}]|\\(?:left|right)[()[\]]/g, " ");
  const out: string[] = [];
  for (let item of splitItems(body)) {
    let times = 1;
    const mult =
      /\(?\s*(?:\\text\{\s*)?(?:multiplicity|mult\.?|algebraic multiplicity)\s*(?:=|:|of)?\s*(\d+)\s*\}?\s*\)?/i
        .exec(item);
    if (mult) {
      times = Number(mult[1]);
      item = item.replace(mult[0], "");
    }
    const word =
      /\(?\s*(?:\\text\{\s*)?(twice|double|thrice|triple|repeated)\s*\}?\s*\)?/i
        .exec(item);
    if (word) {
      times = WORD_COUNT[word[1]!.toLowerCase()] ?? 2;
      item = item.replace(word[0], "");
    }
    const power = /\(\s*[×x]\s*(\d+)\s*\)/.exec(item);
    if (power) {
      times = Number(power[1]);
      item = item.replace(power[0], "");
    }
    // Drop labels ("\lambda_1 =", "λ₂ =") and keep what follows "≈" if given.
    item = item.replace(/^.*=/, "").trim();
    const approx = /(?:\\approx|≈)\s*(.+)$/.exec(item);
    if (approx) item = approx[1]!.trim();
    item = item.replace(/^\\\{|\\\}$/g, "").trim();
    if (/^\{[^{}]*\}$/.test(item)) item = item.slice(1, -1).trim();
    const variants = /\\pm|±/.test(item)
      ? [item.replace(/\\pm|±/, "+"), item.replace(/\\pm|±/, "-")]
      : [item];
    for (const v of variants) {
      const value = valueOf(v);
      if (value === null) return null;
      for (let k = 0; k < times; k++) out.push(value);
    }
  }
  return out.length > 0 ? out : null;
}
