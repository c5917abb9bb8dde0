/**
 * The large inputs a code problem is judged on, generated and encoded
 * once per (problem version, size, seed) in a run and kept for the next candidates
 * of the problem (a sweep asks every sample of a question in a row):
 * generating and encoding an input of 16,000–32,000 values costs
 * milliseconds every time. Least recently used entries go first.
 *
 * @module
 */
import { PreparedArgs } from "../../sandbox/mod.ts";
import { type CodeProblem, largeInput } from "./bank/mod.ts";

/** Entries kept: about seven problems' measured sizes and large inputs. */
const LIMIT = 96;

/** One run's prepared large inputs, least recently used dropped first. */
export class PreparedInputs {
  readonly #kept = new Map<
    string,
    { args: unknown[]; prepared: PreparedArgs }
  >();

  /**
   * The argument list of size `n` and its encoding for the sandbox.
   *
   * @param problem The problem (its version, id and generator).
   * @param n The input size.
   * @param seed The large-input seed.
   * @returns The arguments and the same arguments encoded once.
   */
  get(
    problem: CodeProblem,
    n: number,
    seed: number,
  ): { args: unknown[]; prepared: PreparedArgs } {
    const kept = this.#kept;
    const key = `${problem.id}|${problem.version}|${n}|${seed}`;
    let hit = kept.get(key);
    if (hit === undefined) {
      const args = largeInput(problem, { n, seed });
      hit = { args, prepared: new PreparedArgs(args) };
      if (kept.size >= LIMIT) kept.delete(kept.keys().next().value!);
    } else kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
}
