/**
 * What one run of the code suite keeps across its rows, and nothing
 * outside it: the sandbox pool its params ask for (made when first
 * needed), the problems its questions came from (the scorer looks each up
 * by id), the reference outputs computed on that sandbox, the large
 * inputs generated for its problems, the verdicts judged so far
 * (identical programs are judged once), and the Python process that
 * reads the replies' top level for extraction. Two sweeps in one process, with
 * other params or another bank, each have their own.
 *
 * @module
 */
import { createSandbox, type Sandbox } from "../../sandbox/mod.ts";
import { type PythonReader, pythonReader } from "./_extract_deps_py.ts";
import type { CodeProblem } from "./bank/mod.ts";
import type { CodeParams } from "./params.ts";
import { ReferenceOutputs } from "./_expected.ts";
import { PreparedInputs } from "./_inputs.ts";
import { VerdictMemo } from "./verdicts.ts";

/** The sandbox options a suite's params ask for. */
export type SandboxParams = Pick<CodeParams, "python" | "concurrency">;

/**
 * One code-suite run's state (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CodeRunState } from "./run.ts";
 * const a = new CodeRunState({ python: "auto", concurrency: 1 });
 * const b = new CodeRunState({ python: "auto", concurrency: 1 });
 * assert.equal(a.sandbox(), a.sandbox());
 * assert.notEqual(a.sandbox(), b.sandbox());
 * await Promise.all([a.close(), b.close()]);
 * ```
 */
export class CodeRunState {
  /** The bank problems of the run's questions, by id. */
  readonly problems: Map<string, CodeProblem> = new Map();
  /** The references' outputs on this run's sandbox (the keys). */
  readonly references: ReferenceOutputs = new ReferenceOutputs();
  /** Large inputs, generated and encoded once per problem and size. */
  readonly inputs: PreparedInputs = new PreparedInputs();
  /** Verdicts of the programs judged so far. */
  readonly verdicts: VerdictMemo = new VerdictMemo();
  readonly #params: SandboxParams;
  #sandbox: Sandbox | undefined;
  #python: PythonReader | undefined;

  /**
   * A run's state, nothing opened yet.
   *
   * @param params The run's sandbox params.
   */
  constructor(params: SandboxParams) {
    this.#params = params;
  }

  /**
   * The run's sandbox (two warm workers per language; as many requests
   * at once as `concurrency`, default the cores), made on first use.
   */
  sandbox(): Sandbox {
    return this.#sandbox ??= createSandbox({
      warm: 2,
      python: this.#params.python,
      ...(this.#params.concurrency === undefined
        ? {}
        : { concurrency: this.#params.concurrency }),
    });
  }

  /** The run's reader of Python programs (for extraction), made on first use. */
  python(): PythonReader {
    return this.#python ??= pythonReader();
  }

  /** Closes the sandbox and the Python reader, if they were made. */
  async close(): Promise<void> {
    const open = this.#sandbox;
    const python = this.#python;
    this.#sandbox = undefined;
    this.#python = undefined;
    await Promise.all([open?.close(), python?.close()]);
  }
}
