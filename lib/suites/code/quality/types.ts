/**
 * The code-quality measures of one program.
 *
 * @module
 */

/** Languages `measureQuality` reads (TypeScript counts as javascript). */
export type QualityLanguage = "python" | "javascript";

/** Code-quality measures computed by real parsers. */
export interface QualityMeasures {
  /** Lines holding code: not blank, not only a comment (nor a Python docstring). */
  lines: number;
  /**
   * 1 + decision points of the whole program (all functions together);
   * 0 when the code does not parse.
   */
  cyclomatic: number;
  /**
   * Deepest nesting of control statements inside one function (ESLint
   * max-depth: `else if` continues its chain, a nested function starts
   * again at 0); 0 when the code does not parse.
   */
  nesting: number;
  /** Lint findings, or null when the code does not parse or lint failed. */
  lint_findings: number | null;
  /** Whether the language's parser accepted the code. */
  parse_ok: boolean;
  /** The rule code of each lint finding (e.g. `no-unused-vars`, `bare-except`). */
  findings: string[];
}
