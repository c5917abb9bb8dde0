/**
 * `\boxed{…}` contents with balanced braces (a boxed `bmatrix` holds
 * braces of its own, so a regular expression cannot find its end).
 *
 * @module
 */

/** One `\boxed{}` (or `\fbox{}`) group: its content and the content's span. */
export interface Boxed {
  content: string;
  span: [number, number];
}

/** Every boxed group in text order. */
export function boxedGroups(text: string): Boxed[] {
  const out: Boxed[] = [];
  const re = /\\(?:boxed|fbox)\s*\{/g;
  for (const m of text.matchAll(re)) {
    const start = m.index + m[0].length;
    let depth = 1, i = start;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}") depth--;
    }
    if (depth === 0) {
      out.push({ content: text.slice(start, i - 1), span: [start, i - 1] });
    }
  }
  return out;
}
