/**
 * Programs whose time-complexity class is known, to check
 * `measureComplexity` against: every reference and naive solution of the
 * bank (classes declared in `problem.json`: `reference_complexity` or
 * `complexity`, and `naive_complexity`), and programs that hide work in
 * builtins (`tests/sandbox/references.ts`). Shared by the test and the
 * benchmark.
 *
 * The programs are split into two declared halves ({@linkcode halfOf}):
 * the complexity method's thresholds (`lib/sandbox/complexity_method.ts`)
 * are justified on "tune"; "hold" shows how they do on programs they were
 * not chosen on.
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

/** Which half of the known-class programs one belongs to. */
export type Half = "tune" | "hold";

/**
 * The split rule, declared once: a program's group is its bank problem (the
 * reference and the naive solution together) or its hidden-work name; the
 * groups sorted by name alternate "tune", "hold", "tune", …
 *
 * @param group The group's name (`bfs_distances`, `hidden/…`).
 * @param groups Every group's name.
 * @returns The group's half.
 */
export function halfOf(group: string, groups: readonly string[]): Half {
  const sorted = [...new Set(groups)].sort();
  const i = sorted.indexOf(group);
  if (i < 0) {
    throw new RangeError(
      `Cannot split the known-class programs: no group ${group}; pass every group's name`,
    );
  }
  return i % 2 === 0 ? "tune" : "hold";
}

/** One program of known class. */
export interface KnownProgram {
  /** e.g. `bfs_distances/reference` or `hidden/membership on a list in a loop`. */
  name: string;
  /** Its half of the bank (see {@linkcode halfOf}). */
  half: Half;
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
  const bank = await loadBank();
  const groups = [
    ...bank.map((p) => p.id),
    ...HIDDEN_WORK.map((h) => `hidden/${h.name}`),
  ];
  for (const p of bank) {
    const half = halfOf(p.id, groups);
    const inputs = new Map<number, PreparedArgs>();
    const input = (n: number) => {
      let x = inputs.get(n);
      if (x === undefined) {
        inputs.set(n, x = new Prepared(largeInput(p, { n, seed: 1 })));
      }
      return x;
    };
    for (const language of ["python", "javascript"] as const) {
      out.push({
        name: `${p.id}/reference`,
        half,
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
          half,
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
        half: halfOf(`hidden/${h.name}`, groups),
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
