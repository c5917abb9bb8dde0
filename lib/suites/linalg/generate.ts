/**
 * Seeded generator of new linear-algebra problems: the nine LinAlg-Bench
 * tasks at any size n ≥ 2, with the paper's entry ranges (trace and
 * transpose −9..9; matrix–vector −5..5; product −4..4, −3..3 from 5×5;
 * power −3..3, −2..2 from 5×5; determinant −5..5), rank and nullity built
 * to a target rank, eigenvalue problems from symmetric A + Aᵀ or with
 * integer eigenvalues by construction.
 *
 * @module
 */
import { LINALG_TASKS, type LinalgProblem, type LinalgTask } from "./tasks.ts";
import { createRng } from "../../math/rng.ts";
import {
  integerEigenMatrix,
  matrixOfRank,
  randomMatrix,
  symmetricMatrix,
} from "./_build.ts";

/** How eigenvalue problems are built. */
export type EigenMode = "symmetric" | "integer" | "mixed";

/** Options for {@linkcode generateLinalg}. */
export interface GenerateLinalgOptions {
  /** Sweep seed. */
  seed: number;
  /**
   * Tasks to generate.
   * @default all nine
   */
  tasks?: readonly LinalgTask[];
  /**
   * Matrix sizes (n ≥ 2).
   * @default [3, 4, 5]
   */
  sizes?: readonly number[];
  /**
   * Problems per (task, size).
   * @default 10
   */
  count?: number;
  /**
   * Exponent of matrix_power problems.
   * @default 2
   */
  exponent?: number;
  /**
   * Eigenvalue construction: symmetric A + Aᵀ, integer eigenvalues, or alternating.
   * @default "mixed"
   */
  eigen?: EigenMode;
}

function operands(
  task: LinalgTask,
  n: number,
  index: number,
  key: string,
  eigen: EigenMode,
): Pick<LinalgProblem, "A" | "B" | "x"> {
  const rng = createRng(key);
  switch (task) {
    case "trace":
    case "transpose":
      return { A: randomMatrix(rng, n, n, -9, 9) };
    case "matrix_vector":
      return {
        A: randomMatrix(rng, n, n, -5, 5),
        x: randomMatrix(rng, n, 1, -5, 5).map((r) => r[0]!),
      };
    case "multiplication": {
      const k = n >= 5 ? 3 : 4;
      return {
        A: randomMatrix(rng, n, n, -k, k),
        B: randomMatrix(rng, n, n, -k, k),
      };
    }
    case "matrix_power": {
      const k = n >= 5 ? 2 : 3;
      return { A: randomMatrix(rng, n, n, -k, k) };
    }
    case "determinant":
      return { A: randomMatrix(rng, n, n, -5, 5) };
    case "rank":
    case "nullity":
      return { A: matrixOfRank(rng, n, rng.int(1, n)) };
    case "eigenvalue": {
      const integer = eigen === "integer" ||
        (eigen === "mixed" && index % 2 === 1);
      return {
        A: integer
          ? integerEigenMatrix(rng, n)
          : symmetricMatrix(rng, n, -4, 4),
      };
    }
  }
}

/**
 * Generates problems, the same for the same options. Ids look like
 * `gen_5x5_determinant_s42_003`.
 *
 * @param options Seed, tasks, sizes, count, exponent, eigen mode.
 * @returns The problems, by task, then size, then index.
 * @throws {RangeError} for a size below 2 or a count below 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateLinalg } from "./generate.ts";
 * const [p] = generateLinalg({ seed: 7, tasks: ["determinant"], sizes: [6], count: 1 });
 * assert.equal(p!.A.length, 6);
 * assert.ok(p!.A.flat().every((v) => Math.abs(Number(v)) <= 5));
 * assert.deepEqual(generateLinalg({ seed: 7, tasks: ["determinant"], sizes: [6], count: 1 }), [p]);
 * ```
 */
export function generateLinalg(
  options: GenerateLinalgOptions,
): LinalgProblem[] {
  const {
    seed,
    tasks = LINALG_TASKS,
    sizes = [3, 4, 5],
    count = 10,
    exponent = 2,
    eigen = "mixed",
  } = options;
  if (sizes.some((n) => !Number.isInteger(n) || n < 2)) {
    throw new RangeError(
      `Cannot generate linear-algebra problems: sizes must be integers ≥ 2, got ${sizes}`,
    );
  }
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(
      `Cannot generate linear-algebra problems: count must be ≥ 1, got ${count}`,
    );
  }
  const out: LinalgProblem[] = [];
  for (const task of tasks) {
    for (const n of sizes) {
      for (let i = 0; i < count; i++) {
        const id = `gen_${n}x${n}_${task}_s${seed}_${
          String(i + 1).padStart(3, "0")
        }`;
        const problem: LinalgProblem = {
          id,
          source: "generated",
          task,
          n,
          ...operands(task, n, i, `linalg/${id}`, eigen),
        };
        if (task === "matrix_power") problem.exponent = exponent;
        out.push(problem);
      }
    }
  }
  return out;
}
