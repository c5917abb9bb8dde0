/**
 * Seeded, per-request fault draws for the sim server. Private to
 * `lib/providers`.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** Fault rates, each in [0, 1]. */
export interface FaultRates {
  /** 429 with a `Retry-After` header. @default {0} */
  rate429?: number;
  /** `Retry-After` seconds sent with a 429 (fractions allowed). @default {1} */
  retryAfterS?: number;
  /** 500 Internal Server Error. @default {0} */
  rate500?: number;
  /** 503 Service Unavailable. @default {0} */
  rate503?: number;
  /** Never answers until the client gives up. @default {0} */
  rateHang?: number;
  /** Closes the TCP connection without a response. @default {0} */
  rateDrop?: number;
  /** 200 with a truncated JSON body. @default {0} */
  rateMalformed?: number;
}

/** What the server does with one request. */
export type Fault =
  | "429"
  | "500"
  | "503"
  | "hang"
  | "drop"
  | "malformed"
  | null;

const ORDER: [Exclude<Fault, null>, keyof FaultRates][] = [
  ["429", "rate429"],
  ["500", "rate500"],
  ["503", "rate503"],
  ["hang", "rateHang"],
  ["drop", "rateDrop"],
  ["malformed", "rateMalformed"],
];

/**
 * Draws faults deterministically from (seed, request body, attempt number
 * of that body): a retry of the same body draws afresh, so it can succeed,
 * and a rerun against a fresh server repeats the same sequence. Each fault
 * kind has its own uniform draw (4 bytes of one SHA-256) compared with its
 * rate; the first one that fires wins.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FaultDrawer } from "./_faults.ts";
 * const draws = (seed: number) => {
 *   const drawer = new FaultDrawer(seed, { rate500: 0.5 });
 *   return Array.from({ length: 6 }, () => drawer.draw("{}"));
 * };
 * assert.deepEqual(draws(1), draws(1));
 * assert.equal(new FaultDrawer(1, { rateHang: 1 }).draw("{}"), "hang");
 * ```
 */
export class FaultDrawer {
  readonly #seed: number;
  readonly #rates: FaultRates;
  readonly #active: boolean;
  #attempts = new Map<string, number>();

  constructor(seed: number, rates: FaultRates) {
    this.#seed = seed;
    this.#rates = rates;
    this.#active = ORDER.some(([, key]) => (rates[key] ?? 0) > 0);
  }

  /** The fault for this body's next attempt, or null. */
  draw(body: string): Fault {
    if (!this.#active) return null;
    const digest = createHash("sha256").update(body).digest("hex");
    const attempt = this.#attempts.get(digest) ?? 0;
    // Bounded memory for long-running servers: forgetting old bodies only
    // restarts their attempt numbering.
    if (this.#attempts.size >= 1_000_000) this.#attempts = new Map();
    this.#attempts.set(digest, attempt + 1);
    const bytes = createHash("sha256").update(
      `${this.#seed}|${attempt}|${digest}`,
    ).digest();
    for (let i = 0; i < ORDER.length; i++) {
      const [fault, key] = ORDER[i]!;
      const rate = this.#rates[key] ?? 0;
      if (rate > 0 && bytes.readUInt32BE(i * 4) / 2 ** 32 < rate) return fault;
    }
    return null;
  }
}
