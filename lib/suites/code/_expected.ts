/**
 * The answer key of a bank problem: its JavaScript reference's outputs on
 * every test, computed in the sandbox once per problem and run.
 *
 * @module
 */
import type { Sandbox, SandboxValue } from "../../sandbox/mod.ts";
import type { CodeProblem } from "./bank/mod.ts";

/** The references' outputs of one run, computed once per problem. */
export class ReferenceOutputs {
  readonly #outputs = new Map<CodeProblem, Promise<SandboxValue[]>>();

  /** The JavaScript reference's outputs on every test, run in `sandbox`. */
  of(problem: CodeProblem, sandbox: Sandbox): Promise<SandboxValue[]> {
    let out = this.#outputs.get(problem);
    if (out === undefined) {
      out = referenceOutputsOn(problem, sandbox);
      this.#outputs.set(problem, out);
    }
    return out;
  }
}

/**
 * The JavaScript reference's outputs on every test, run in `sandbox`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSandbox } from "../../sandbox/mod.ts";
 * import { loadBank } from "./bank/mod.ts";
 * import { referenceOutputsOn } from "./_expected.ts";
 * const [problem] = await loadBank();
 * const sandbox = createSandbox({ warm: 0 });
 * const outputs = await referenceOutputsOn(problem!, sandbox);
 * await sandbox.close();
 * assert.equal(outputs.length, problem!.tests.length);
 * ```
 */
export function referenceOutputsOn(
  problem: CodeProblem,
  sandbox: Sandbox,
): Promise<SandboxValue[]> {
  {
    return sandbox.runCode({
      language: "javascript",
      code: problem.reference.javascript,
      entry: problem.entry.javascript,
      calls: problem.tests.map((t) => t.args),
      timeoutMs: 30_000,
    }).then((r) => {
      const values: SandboxValue[] = [];
      r.results.forEach((c, i) => {
        if (!c.ok) {
          throw new Error(
            `Cannot compute the key of code problem ${problem.id}: its JavaScript reference failed on test ${i} (${c.error}); fix ${problem.dir}/reference.js`,
          );
        }
        values.push(c.value);
      });
      if (r.status !== "ok") {
        throw new Error(
          `Cannot compute the key of code problem ${problem.id}: the reference ended with ${r.status}; fix ${problem.dir}/reference.js`,
        );
      }
      return values;
    });
  }
}
