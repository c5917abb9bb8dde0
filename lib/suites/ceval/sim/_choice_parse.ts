/**
 * Reads a multiple-choice question out of prompt text the way a model
 * would: the last block of `A. …` to `D. …` option lines, the question
 * stem above it, and the exam subject named in a C-Eval style header.
 *
 * @module
 */

/** A multiple-choice question read from a prompt. */
export interface ChoiceTask {
  /** The question stem (without options or the trailing "答案：" cue). */
  stem: string;
  /** Option letters in order, e.g. ["A", "B", "C", "D"]. */
  letters: string[];
  /** Option texts by letter. */
  options: Record<string, string>;
  /** The Chinese subject name from "以下是中国关于X考试…", if any. */
  subjectZh: string | null;
}

const OPTION_LINE =
  /^\s*[(（]?([A-FＡ-Ｆ])[)）]?\s*[.．、:：)）]\s*(\S.*?)\s*$/;

function letterOf(ch: string): string {
  const code = ch.charCodeAt(0);
  return code >= 0xff21 ? String.fromCharCode(code - 0xff21 + 0x41) : ch;
}

/**
 * The last option block of a prompt (at least A–D in order), its stem and
 * the subject; null when the text holds no such block.
 */
export function parseChoiceTask(
  question: string,
  system: string,
): ChoiceTask | null {
  const lines = question.split(/\r?\n/);
  // Find the last "A." line followed by B., C., D. (and maybe E., F.).
  for (let i = lines.length - 1; i >= 0; i--) {
    const first = OPTION_LINE.exec(lines[i]!);
    if (first === null || letterOf(first[1]!) !== "A") continue;
    const options: Record<string, string> = { A: first[2]! };
    const letters = ["A"];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const m = OPTION_LINE.exec(lines[j]!);
      const want = String.fromCharCode(0x41 + letters.length);
      if (m === null || letterOf(m[1]!) !== want) break;
      options[want] = m[2]!;
      letters.push(want);
    }
    if (letters.length < 4) continue;
    let start = i;
    while (start > 0 && lines[start - 1]!.trim() !== "") start--;
    const stem = lines.slice(start, i).join("\n").trim();
    if (stem === "") continue;
    const header = /关于(.+?)考试/.exec(`${system}\n${question}`);
    return { stem, letters, options, subjectZh: header?.[1] ?? null };
  }
  return null;
}
