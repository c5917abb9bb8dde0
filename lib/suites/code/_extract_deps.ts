/**
 * The dependency cut, the same for every language: keep the entry and what
 * it transitively uses, drop the top-level code it does not need (evalplus's
 * sanitizer walks the call graph from the entry the same way). A language
 * only describes its top-level statements as `TopStatement`s.
 *
 * @module
 */
import type { ExampleStatement } from "./_extract_cut.ts";

/** One top-level statement, as the cut sees it. */
export interface TopStatement {
  /** Offset of its first character (a decorator's included). */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** A function or class (or a name bound to a function): always kept. */
  definition: boolean;
  /** Runs nothing when loaded: a definition, an import, a call-free assignment to names. */
  inert: boolean;
  /** Names it declares. */
  binds: string[];
  /** Names it changes when run (a definition: when called). */
  writes: string[];
  /** Free names it reads, in source order. */
  reads: string[];
  /** Its name in the reason by shape (`print call`), or null for a generic one. */
  label: string | null;
  /** Its name when there is no label and it uses no dropped name. */
  fallback: string;
}

/**
 * The statements to drop: those that neither feed the entry (declare or
 * change a name it transitively reads, without calling it) nor are inert,
 * and inert ones that read a name only dropped code declares. With no
 * statement declaring the entry, nothing feeds it: all code that runs goes.
 *
 * @param statements The program's top-level statements, in order.
 * @param entry The function that will be called.
 * @returns The statements to drop, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dependencyCut, type TopStatement } from "./_extract_deps.ts";
 * const s = (binds: string[], reads: string[], more: Partial<TopStatement> = {}): TopStatement =>
 *   ({ start: 0, end: 1, definition: false, inert: false, binds, writes: binds, reads, label: null, fallback: "statement", ...more });
 * const f = s(["f"], ["K"], { definition: true, inert: true, writes: [] });
 * const k = s(["K"], ["load"]);
 * const show = s([], ["print", "f"], { label: "print call" });
 * assert.deepEqual(dependencyCut([k, f, show], "f").map((d) => d.kind), ["print call"]);
 * assert.deepEqual(dependencyCut([k, show], "g").map((d) => d.kind), ["statement", "print call"]);
 * ```
 */
export function dependencyCut(
  statements: readonly TopStatement[],
  entry: string,
): ExampleStatement[] {
  const definitions = new Map<string, TopStatement>();
  statements.forEach((s) =>
    s.definition && s.binds.forEach((b) => definitions.set(b, s))
  );
  /** The definitions `s` reaches through the names it reads, itself included. */
  const reach = (s: TopStatement, seen = new Set<TopStatement>()) => {
    if (seen.has(s)) return seen;
    seen.add(s);
    for (const r of s.reads) {
      const d = definitions.get(r);
      if (d !== undefined) reach(d, seen);
    }
    return seen;
  };
  const feeds = (s: TopStatement, needed: ReadonlySet<string>) => {
    if (s.inert) return s.binds.some((b) => needed.has(b));
    const reached = [...reach(s)];
    return !reached.some((t) => t !== s && t.binds.includes(entry)) &&
      !s.reads.includes(entry) &&
      reached.some((t) => [...t.writes, ...s.binds].some((w) => needed.has(w)));
  };
  const needed = new Set([entry]);
  const kept = new Set<TopStatement>();
  for (let grew = true; grew;) {
    grew = false;
    for (const s of statements) {
      if (kept.has(s) || !feeds(s, needed)) continue;
      kept.add(s);
      s.reads.forEach((r) => needed.add(r));
      grew = true;
    }
  }
  // What reads a name only dropped code declares goes too.
  const dropped = new Set(statements.filter((s) => !kept.has(s) && !s.inert));
  const uses = (s: TopStatement) => {
    const live = statements.filter((t) => !dropped.has(t)).flatMap((t) =>
      t.binds
    );
    const gone = [...dropped].flatMap((t) => t.binds);
    return s.reads.find((r) =>
      gone.includes(r) && !live.includes(r) && !s.binds.includes(r)
    );
  };
  for (let grew = true; grew;) {
    grew = false;
    for (const s of statements) {
      if (dropped.has(s) || s.definition || uses(s) === undefined) continue;
      dropped.add(s);
      grew = true;
    }
  }
  return statements.filter((s) => dropped.has(s)).map((s) => {
    const used = uses(s);
    const kind = s.label ??
      (used ? `use of ${used} from dropped code` : s.fallback);
    return { kind, start: s.start, end: s.end };
  });
}
