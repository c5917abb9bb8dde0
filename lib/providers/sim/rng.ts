/**
 * Seeded randomness for the simulated model: the project's one
 * implementation (`lib/math/rng.ts`), under the names the sim uses.
 *
 * @module
 */
export {
  fnv1a32 as hash32,
  intBetween,
  mix32,
  mulberry32,
  pick,
  pickWeighted,
  type Uniform,
} from "../../math/rng.ts";
