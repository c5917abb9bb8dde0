/**
 * Reading the commands of a documented `sh` block: logical lines, the
 * exit code a comment expects, `<placeholder>` paths resolved against what
 * earlier commands made, and endpoint URLs swapped for the test's sim.
 */
import { join } from "node:path";

/** One command of a block. */
export interface Command {
  /** The command without its comment. */
  text: string;
  /** The comment after it, without `#`, or "". */
  comment: string;
  /** The exit code the comment expects with `(exit N)` (`# refused (exit 2): ...`), else 0. */
  exit: number;
  /** An `export A=1` line or a bare `A=1` assignment: kept for later lines. */
  assignment: boolean;
  /**
   * What the comment quotes the output saying (`# warns: "set aside ...
   * line(s)"`): each quote's parts between `...` must appear in the
   * output, in order.
   */
  says: string[][];
}

/** Splits a line at its comment: a `#` outside quotes, at the start or after a space. */
export function splitComment(line: string): [string, string] {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') i++;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === "\\") {
      i++;
    } else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) {
      return [line.slice(0, i).trimEnd(), line.slice(i + 1).trim()];
    }
  }
  return [line.trimEnd(), ""];
}

/**
 * The commands of an `sh` block: continuation lines joined, blank and
 * comment-only lines dropped.
 */
export function commands(text: string): Command[] {
  const out: Command[] = [];
  const joined = text.replace(/\\\n\s*/g, " ");
  for (const raw of joined.split("\n")) {
    const [code, comment] = splitComment(raw);
    if (code.trim() === "") continue;
    const exit = /\(exit (\d+)\)/.exec(comment);
    out.push({
      text: code.trim(),
      comment,
      exit: exit === null ? 0 : Number(exit[1]),
      says: [...comment.matchAll(/"([^"]+)"/g)].map((m) =>
        m[1]!.split("...").map((part) => part.trim()).filter((p) => p !== "")
      ),
      assignment: /^(export\s+)?[A-Za-z_]\w*=\S*(\s+[A-Za-z_]\w*=\S*)*$/.test(
        code.trim(),
      ),
    });
  }
  return out;
}

/**
 * Whether an output says what a comment quotes: each part, in order.
 *
 * @param output A command's output.
 * @param parts The quote's parts (see {@linkcode Command.says}).
 */
export function says(output: string, parts: readonly string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = output.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** A placeholder inside a path: `outputs/demo-<time>`, `outputs/<run>`. */
const PLACEHOLDER = /<[a-z][a-z0-9_-]*>/;
/** A word (between spaces or quotes) holding a placeholder. */
const PLACEHOLDER_WORD = /[^\s'"]*<[a-z][a-z0-9_-]*>[^\s'"]*/g;

/**
 * The path a placeholder pattern names in `dir`: each `<name>` matches any
 * characters but `/`; of several matches the last in name order (run
 * folders end in their start time, so the newest run).
 *
 * @returns The path as written (relative), or null when nothing matches.
 */
export function latest(dir: string, pattern: string): string | null {
  const parts = pattern.split("/");
  let found: string[] = [""];
  for (const part of parts) {
    const next: string[] = [];
    for (const base of found) {
      if (!PLACEHOLDER.test(part)) {
        next.push(base === "" ? part : `${base}/${part}`);
        continue;
      }
      const re = new RegExp(
        "^" + part.split(/<[a-z][a-z0-9_-]*>/).map((s) =>
          s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        ).join("[^/]*") + "$",
      );
      try {
        for (const entry of Deno.readDirSync(join(dir, base))) {
          if (re.test(entry.name) && !entry.name.startsWith(".")) {
            next.push(base === "" ? entry.name : `${base}/${entry.name}`);
          }
        }
      } catch {
        // no such folder: no match
      }
    }
    found = next;
  }
  const existing = found.filter((p) => {
    try {
      Deno.statSync(join(dir, p));
      return true;
    } catch {
      return false;
    }
  }).sort();
  return existing.at(-1) ?? null;
}

/**
 * A text with every placeholder word resolved in `dir`.
 *
 * @returns The text, and the words nothing matched.
 */
export function resolvePlaceholders(
  text: string,
  dir: string,
): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(PLACEHOLDER_WORD, (word) => {
    const path = latest(dir, word);
    if (path === null) {
      missing.push(word);
      return word;
    }
    return path;
  });
  return { text: out, missing };
}

/** An endpoint's base URL as configs write it: scheme, host, path ending in `/v1`. */
const ENDPOINT =
  /https?:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:\/[A-Za-z0-9._-]+)*?\/v1\b/g;

/**
 * A text with every endpoint URL swapped: one a page's own sim server was
 * started for (by port) goes to that server, any other to the test's sim.
 *
 * @param text A command or a config.
 * @param servers Port as written → the served base URL.
 * @param sim The test's sim server base URL.
 */
export function swapEndpoints(
  text: string,
  servers: ReadonlyMap<string, string>,
  sim: string,
): string {
  return text.replace(ENDPOINT, (url) => {
    const port = /:(\d+)\//.exec(url)?.[1];
    const local = /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url);
    return (local && port !== undefined ? servers.get(port) : undefined) ??
      sim;
  });
}

/** The `--flag` words of a command (before any `=`). */
export function flagsOf(words: readonly string[]): string[] {
  return words.filter((w) => /^--[a-z]/.test(w)).map((w) => w.split("=")[0]!);
}

/**
 * A command's words, quotes removed (no expansion): enough to name its
 * program, flags and paths.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote: string | null = null;
  let has = false;
  for (const c of text) {
    if (quote !== null) {
      if (c === quote) quote = null;
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur !== "") out.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
    }
  }
  if (has || cur !== "") out.push(cur);
  return out;
}
