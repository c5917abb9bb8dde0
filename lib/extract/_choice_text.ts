/**
 * Length-preserving preparation of a reply for choice extraction: `<think>`
 * blocks blanked out, fullwidth letters and punctuation mapped to ASCII,
 * one UTF-16 unit for one, so spans found here are spans in the original.
 *
 * @module
 */

/** Blanks `<think>…</think>` (and an unclosed trailing `<think>`) with spaces. */
function blankThinking(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  return text
    .replace(/<think>[\s\S]*?<\/think>/gi, blank)
    .replace(/<think>[\s\S]*$/i, blank);
}

const SINGLE: Record<string, string> = {
  "\uFF08": "(",
  "\uFF09": ")",
  "\uFF1A": ":",
  "\uFF0E": ".",
  "\u3010": "[",
  "\u3011": "]",
  "\u00A0": " ",
  "\u3000": " ",
};

/**
 * Prepares a reply: thinking blanked, fullwidth Latin letters (Ａ–Ｚ,
 * ａ–ｚ), brackets and colons mapped to ASCII. Same length as the input.
 */
export function prepareChoiceText(text: string): string {
  let out = "";
  for (const ch of blankThinking(text)) {
    const code = ch.charCodeAt(0);
    if (ch.length === 2) out += ch; // astral: keep both code units
    else if (
      (code >= 0xff21 && code <= 0xff3a) || (code >= 0xff41 && code <= 0xff5a)
    ) out += String.fromCharCode(code - 0xff21 + 0x41);
    else out += SINGLE[ch] ?? ch;
  }
  return out;
}
