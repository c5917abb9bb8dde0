/**
 * Programs whose time-complexity class is known, to check
 * `measureComplexity` against: every reference and naive solution of the
 * bank (classes declared in `problem.json`: `reference_complexity` or
 * `complexity`, and `naive_complexity`), and programs that hide work in
 * builtins (`tests/sandbox/references.ts`). Shared by the test and the
 * benchmark.
 *
 * @module
 */
import type {
  ComplexityClass,
  PreparedArgs,
} from "../../../lib/sandbox/mod.ts";
import { PreparedArgs as Prepared } from "../../../lib/sandbox/mod.ts";
import {
  COMPLEXITY_CLASSES,
  largeInput,
  loadBank,
} from "../../../lib/suites/code/bank/mod.ts";
import { HIDDEN_WORK } from "../../sandbox/references.ts";

/** One program of known class. */
export interface KnownProgram {
  /** e.g. `bfs_distances/reference` or `hidden/membership on a list in a loop`. */
  name: string;
  kind: "reference" | "naive" | "hidden";
  language: "python" | "javascript";
  declared: ComplexityClass;
  code: string;
  entry: string;
  input: (n: number) => unknown[] | PreparedArgs;
}

/**
 * Every known-class program in both languages.
 *
 * @returns Bank references and naive solutions, then the hidden-work programs.
 */
export async function knownClassPrograms(): Promise<KnownProgram[]> {
  const out: KnownProgram[] = [];
  for (const p of await loadBank()) {
    const inputs = new Map<number, PreparedArgs>();
    const input = (n: number) => {
      let x = inputs.get(n);
      if (x === undefined) inputs.set(n, x = new Prepared(largeInput(p, n, 1)));
      return x;
    };
    for (const language of ["python", "javascript"] as const) {
      out.push({
        name: `${p.id}/reference`,
        kind: "reference",
        language,
        declared: p.referenceComplexity,
        code: p.reference[language],
        entry: p.entry[language],
        input,
      });
      const naive = p.naive[language];
      if (naive !== undefined) {
        out.push({
          name: `${p.id}/naive`,
          kind: "naive",
          language,
          declared: p.naiveComplexity,
          code: naive,
          entry: p.entry[language],
          input,
        });
      }
    }
  }
  for (const h of HIDDEN_WORK) {
    for (const language of ["python", "javascript"] as const) {
      out.push({
        name: `hidden/${h.name}`,
        kind: "hidden",
        language,
        declared: h.class[language],
        code: h.code[language],
        entry: h.entry,
        input: h.input,
      });
    }
  }
  return out;
}

/** Classes simplest first, to tell a neighbour from a gross miss. */
export const CLASS_ORDER: readonly ComplexityClass[] = COMPLEXITY_CLASSES;

/** How many classes apart two classes are (Infinity for `unknown`). */
export function classDistance(a: ComplexityClass, b: ComplexityClass): number {
  const i = CLASS_ORDER.indexOf(a), j = CLASS_ORDER.indexOf(b);
  return i < 0 || j < 0 ? Infinity : Math.abs(i - j);
}
