/**
 * Length-preserving text normalisation for number extraction: every
 * character maps to exactly one character, so spans found in the normalised
 * text are spans in the original.
 *
 * @module
 */

const SINGLE: Record<string, string> = {
  "\u2212": "-", // minus sign
  "\u2012": "-", // figure dash
  "\u2013": "-", // en dash (used as minus by some models)
  "\uFE63": "-", // small hyphen-minus
  "\uFF0D": "-", // fullwidth hyphen-minus
  "\uFF0B": "+",
  "\uFF0E": ".",
  "\uFF0F": "/",
  "\uFF05": "%",
  "\uFF04": "$",
  "\uFFE5": "¥",
  "\u00D7": "×",
  "\u00A0": " ",
  "\u202F": " ",
  "\u2009": " ",
};

/**
 * Maps fullwidth digits and signs, Unicode minus signs and odd spaces to
 * ASCII, one character for one character.
 */
export function normalizeChars(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xff10 && code <= 0xff19) {
      out += String.fromCharCode(code - 0xff10 + 48);
    } else if (code > 0xffff) {
      // Keep UTF-16 length: astral characters are two code units.
      out += "  ";
    } else out += SINGLE[ch] ?? ch;
  }
  return out;
}

/**
 * Blanks reasoning blocks (`<think>…</think>`, `<thinking>`, `<reasoning>`)
 * with spaces. An unclosed opening tag blanks to the end; a closing tag
 * without an opening one blanks everything before it.
 */
export function blankThinking(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  let out = text.replace(
    /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi,
    (m) => blank(m),
  );
  out = out.replace(/<(think|thinking|reasoning)>[\s\S]*$/i, (m) => blank(m));
  const orphan = /<\/(think|thinking|reasoning)>/i.exec(out);
  if (orphan !== null) {
    const end = orphan.index + orphan[0].length;
    out = blank(out.slice(0, end)) + out.slice(end);
  }
  return out;
}
