/**
 * Length-preserving reading of a reply: reasoning blocks blanked, fenced
 * code blocks found with their spans, the unfenced code segment.
 *
 * @module
 */

/** Blanks a string to spaces, keeping newlines (and so every offset). */
export function blank(s: string): string {
  return s.replace(/[^\n]/g, " ");
}

/** Where the reasoning was, after `blankThinking`. */
export interface Thinking {
  /** The reply with closed `<think>` blocks (and an unclosed tail) blanked. */
  text: string;
  /** Offset of an unclosed `<think>` tag's content, or null. */
  unclosedAt: number | null;
}

const OPEN = /<(think|thinking|reasoning)>/i;

/**
 * Blanks `<think>…</think>` (also `<thinking>`, `<reasoning>`); an unclosed
 * opening tag blanks to the end; a closing tag without an opening one
 * blanks everything before it (servers that strip the opening tag).
 */
export function blankThinking(reply: string): Thinking {
  let text = reply.replace(
    /<(think|thinking|reasoning)>[\s\S]*?<\/\1\s*>/gi,
    (m) => blank(m),
  );
  const orphan = /<\/(think|thinking|reasoning)\s*>/i.exec(text);
  if (orphan !== null && !OPEN.test(text.slice(0, orphan.index))) {
    const end = orphan.index + orphan[0].length;
    text = blank(text.slice(0, end)) + text.slice(end);
  }
  let unclosedAt: number | null = null;
  const open = OPEN.exec(text);
  if (open !== null) {
    unclosedAt = open.index + open[0].length;
    text = text.slice(0, open.index) + blank(text.slice(open.index));
  }
  return { text, unclosedAt };
}

/** One fenced block of a reply. */
export interface Fence {
  /** The info string's first word, lower-cased ("" when untagged). */
  tag: string;
  /** The block's content (no fence lines). */
  content: string;
  /** Span of the content in the reply. */
  span: [number, number];
}

/**
 * Fenced blocks (``` or ~~~, three or more, indented up to three spaces);
 * a fence closes only on a line of the same character at least as long,
 * so backticks inside strings do not end it; an unclosed fence runs to the
 * end of the text.
 */
export function findFences(text: string): Fence[] {
  const fences: Fence[] = [];
  const lineRe = /[^\n]*(\n|$)/g;
  let open: { marker: string; tag: string; contentStart: number } | null = null;
  let m: RegExpExecArray | null;
  while ((m = lineRe.exec(text)) !== null) {
    if (m[0] === "") break;
    const start = m.index;
    const line = m[0].replace(/\r?\n$/, "");
    if (open === null) {
      const f = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/.exec(line);
      if (f !== null) {
        open = {
          marker: f[1]!,
          tag: (f[2] ?? "").toLowerCase().replace(/^\{?\.?/, "").replace(
            /\}$/,
            "",
          ),
          contentStart: start + m[0].length,
        };
      }
    } else {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (
        close !== null && close[1]![0] === open.marker[0] &&
        close[1]!.length >= open.marker.length
      ) {
        const end = Math.max(open.contentStart, start);
        fences.push({
          tag: open.tag,
          content: text.slice(open.contentStart, end),
          span: [open.contentStart, end],
        });
        open = null;
      }
    }
  }
  if (open !== null) {
    fences.push({
      tag: open.tag,
      content: text.slice(open.contentStart),
      span: [open.contentStart, text.length],
    });
  }
  return fences;
}

const DEF_LINE =
  /^(?:(?:async\s+)?def\s+[A-Za-z_]\w*\s*\(|(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*[A-Za-z_$][\w$]*\s*[(<]|(?:export\s+)?(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?:\(|function\b|[A-Za-z_$][\w$]*\s*=>))/;
const IMPORT_LINE =
  /^(?:import\s|from\s+[\w.]+\s+import\s|(?:const|let|var)\s+[\w${}\s,]+=\s*require\()/;
const CODE_START =
  /^(?:def|class|async|import|from|return|if|elif|else|for|while|try|except|finally|with|raise|assert|print|pass|function|const|let|var|export|switch|case|default|break|continue|console|module|throw|yield|lambda|match|[A-Za-z_$][\w$.]*\s*(?:=|\(|\[|\+=|-=|\*=|\/=))/;

/** Whether a column-0 line reads as prose rather than code. */
export function looksLikeProse(line: string): boolean {
  const t = line.trim();
  if (t === "") return false;
  if (/^[#/@)}\]]/.test(t)) return false;
  if (t.charCodeAt(0) > 0x7f) return true; // Chinese or other prose
  if (/^([-*+]|\d+[.)])\s/.test(t)) return true; // a Markdown list
  if (/^(\*\*|__|>)/.test(t)) return true;
  if (CODE_START.test(t) && !/^[A-Z][a-z]+\s+[a-z]+\s+[a-z]+/.test(t)) {
    return false;
  }
  return /^[A-Za-z][\w'’-]*(\s+\S+){2,}/.test(t) && !/[;{]\s*$/.test(t);
}

/**
 * The code of a reply without fences: from the first function definition
 * (or the import lines just before it) to the last line before trailing
 * prose at column 0.
 */
export function unfencedSegment(
  text: string,
): { code: string; span: [number, number] } | null {
  const lines: { start: number; line: string }[] = [];
  let offset = 0;
  for (const raw of text.split("\n")) {
    lines.push({ start: offset, line: raw.replace(/\r$/, "") });
    offset += raw.length + 1;
  }
  const first = lines.findIndex((l) => DEF_LINE.test(l.line));
  if (first < 0) return null;
  let from = first;
  for (let i = first - 1; i >= 0; i--) {
    const t = lines[i]!.line;
    if (t.trim() === "" || /^\s*(#|\/\/)/.test(t)) continue;
    if (IMPORT_LINE.test(t) || /^@\w/.test(t)) from = i;
    else break;
  }
  let to = first;
  for (let i = first + 1; i < lines.length; i++) {
    const t = lines[i]!.line;
    if (t.trim() === "") continue;
    if (!/^\s/.test(t) && looksLikeProse(t)) break;
    to = i;
  }
  const start = lines[from]!.start;
  const last = lines[to]!;
  const end = last.start + last.line.length;
  return { code: text.slice(start, end), span: [start, end] };
}
