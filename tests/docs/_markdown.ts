/**
 * Reading the project's Markdown pages for the docs tests: fenced blocks
 * with their info strings, headings as GitHub anchors, relative links and
 * inline `deno task` commands.
 *
 * A block's info string is its language, then `key=value` attributes and
 * bare flags: ```` ```json file=my-sweep.json ```` or ```` ```sh server ````.
 * GitHub highlights by the first word and ignores the rest.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root folder. */
export const ROOT: string = fileURLToPath(new URL("../..", import.meta.url));

/** One fenced block of a page. */
export interface Block {
  /** The page, relative to the root (`README.md`, `docs/runs.md`). */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word (`sh`, `json`, `text`, ...; "" when none). */
  lang: string;
  /** `key=value` words of the info string. */
  attrs: Record<string, string>;
  /** Bare words of the info string after the language (`server`). */
  flags: string[];
  /** The block's text, its fence's indentation removed, ending in a newline. */
  text: string;
  /** The nearest heading above the block, or "" at the top. */
  heading: string;
  /** The page's text from that heading (or the top) to the block. */
  before: string;
}

/** One page: its path, text and blocks. */
export interface Page {
  /** Relative to the root. */
  path: string;
  text: string;
  blocks: Block[];
}

/**
 * The fenced blocks of a Markdown text, in order.
 *
 * @param markdown The page's text.
 * @param page The page's path, for messages.
 * @returns The blocks.
 * @throws {SyntaxError} For a fence that is never closed.
 */
export function fencedBlocks(markdown: string, page: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  let heading = "";
  let headingAt = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) {
      heading = line;
      headingAt = i;
      continue;
    }
    const open = /^( *)```(.*)$/.exec(line);
    if (open === null) continue;
    const indent = open[1]!.length;
    const [lang = "", ...words] = open[2]!.trim().split(/\s+/).filter((w) =>
      w !== ""
    );
    const attrs: Record<string, string> = {};
    const flags: string[] = [];
    for (const word of words) {
      const eq = word.indexOf("=");
      if (eq > 0) attrs[word.slice(0, eq)] = word.slice(eq + 1);
      else flags.push(word);
    }
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      if (/^ *```\s*$/.test(lines[j]!)) break;
      body.push(
        lines[j]!.slice(Math.min(indent, /^ */.exec(lines[j]!)![0].length)),
      );
    }
    if (j === lines.length) {
      throw new SyntaxError(`${page}:${i + 1}: a fence that is never closed`);
    }
    blocks.push({
      page,
      line: i + 1,
      lang,
      attrs,
      flags,
      text: body.join("\n") + "\n",
      heading,
      before: lines.slice(headingAt, i).join("\n"),
    });
    i = j;
  }
  return blocks;
}

/**
 * A page's text with its fenced blocks blanked (lines kept), for reading
 * the prose: links and inline code.
 */
export function prose(markdown: string): string {
  let inside = false;
  return markdown.split("\n").map((line) => {
    if (/^ *```/.test(line)) {
      inside = !inside;
      return "";
    }
    return inside ? "" : line;
  }).join("\n");
}

/**
 * GitHub's anchor of a heading: lower case, punctuation dropped, spaces
 * as hyphens; a repeated anchor gets `-1`, `-2`, ...
 *
 * @param markdown The page's text.
 * @returns The anchors of its headings.
 */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown).split("\n")) {
    const m = /^#{1,6} (.+?)\s*#*\s*$/.exec(line);
    if (m === null) continue;
    const base = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A link of a page's prose: its target and line. */
export interface Link {
  target: string;
  line: number;
}

/**
 * The links of a page's prose (`[text](target)`), outside code.
 *
 * @param markdown The page's text.
 * @returns The links in order.
 */
export function links(markdown: string): Link[] {
  const out: Link[] = [];
  prose(markdown).split("\n").forEach((line, i) => {
    const text = line.replace(/`[^`]*`/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      out.push({ target: m[1]!, line: i + 1 });
    }
  });
  return out;
}

/**
 * The inline code spans of a page's prose that are `deno task` commands
 * (also spelled `npx -y deno@X task`), whitespace collapsed.
 *
 * @param markdown The page's text.
 * @returns The commands, from `deno task` on.
 */
export function inlineTaskCommands(markdown: string): string[] {
  const out: string[] = [];
  for (const m of prose(markdown).matchAll(/`([^`]+)`/g)) {
    const code = m[1]!.replace(/\s+/g, " ").trim()
      .replace(/^npx -y deno@[\d.]+ task /, "deno task ");
    if (code.startsWith("deno task ")) out.push(code);
  }
  return out;
}

/** README.md and every page of docs/, read. */
export async function readPages(): Promise<Page[]> {
  const paths = ["README.md"];
  for await (const entry of Deno.readDir(join(ROOT, "docs"))) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      paths.push(`docs/${entry.name}`);
    }
  }
  paths.sort();
  return await Promise.all(paths.map(async (path) => {
    const text = await Deno.readTextFile(join(ROOT, path));
    return { path, text, blocks: fencedBlocks(text, path) };
  }));
}
