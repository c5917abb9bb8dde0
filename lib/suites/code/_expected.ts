/**
 * The answer key of a bank problem: its JavaScript reference's outputs on
 * every test, computed in the sandbox once per problem.
 *
 * @module
 */
import type { Sandbox, SandboxValue } from "../../sandbox/mod.ts";
import type { CodeProblem } from "./bank/mod.ts";

const referenceOutputs = new Map<CodeProblem, Promise<SandboxValue[]>>();

/**
 * The JavaScript reference's outputs on every test, run in `sandbox`
 * (memoised per problem, whichever sandbox ran it first).
 */
export function expectedOutputsOn(
  problem: CodeProblem,
  sandbox: Sandbox,
): Promise<SandboxValue[]> {
  let out = referenceOutputs.get(problem);
  if (out === undefined) {
    out = sandbox.runCode({
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
    referenceOutputs.set(problem, out);
  }
  return out;
}
