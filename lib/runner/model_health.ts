/**
 * How each model of a sweep is faring: rows and error rows per model (the
 * sweep exits non-zero, naming the first error, when a model has nothing
 * but error rows), and the early stop of a model whose first requests all
 * fail with the same client error (a wrong model id, a rejected
 * parameter), so a typo costs twenty requests, not a whole run.
 *
 * @module
 */

/** A model's rows so far, and the first error one of them recorded. */
export interface ModelRows {
  /** Rows stored (this session and before). */
  rows: number;
  /** Rows whose request failed for good (`status: "error"`). */
  errors: number;
  /** The first error row's message, or null. */
  firstError: string | null;
}

/** The fields of a row {@linkcode ModelHealth} reads. */
export interface HealthRow {
  /** The model's name. */
  model: string;
  /** The row's status (`"error"` for a failed request). */
  status: string;
  /** What kind of failure, for an error row. */
  error_kind: string | null;
  /** The failure's message, for an error row. */
  error_message: string | null;
}

/**
 * Rows and error rows per model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ModelHealth } from "./model_health.ts";
 * const health = new ModelHealth();
 * const row = { model: "m", status: "error", error_kind: "client", error_message: "HTTP 404: no such model" };
 * health.note(row);
 * health.note({ ...row, model: "ok", status: "correct", error_kind: null, error_message: null });
 * assert.deepEqual(health.failing(), [["m", { rows: 1, errors: 1, firstError: "HTTP 404: no such model" }]]);
 * ```
 */
export class ModelHealth {
  readonly #by = new Map<string, ModelRows>();

  /**
   * Counts one stored row.
   *
   * @param row The row's model, status and error.
   */
  note(row: HealthRow): void {
    let rows = this.#by.get(row.model);
    if (rows === undefined) {
      this.#by.set(row.model, rows = { rows: 0, errors: 0, firstError: null });
    }
    rows.rows++;
    if (row.status === "error") {
      rows.errors++;
      rows.firstError ??= row.error_message ?? row.error_kind ?? "error";
    }
  }

  /**
   * The models whose every stored row is an error row.
   *
   * @returns Each such model with its counts, in the order first seen.
   */
  failing(): [string, ModelRows][] {
    return [...this.#by].filter(([, r]) => r.rows > 0 && r.errors === r.rows);
  }
}

/** Error kinds that will not go away by asking again (the request itself is wrong). */
const CLIENT_KINDS = new Set(["client", "auth"]);

/**
 * Watches a model's first `limit` rows of a session: when every one failed
 * with a client error (4xx but 429) and the same message, the model is
 * stopped; any other row first disarms it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FailFast } from "./model_health.ts";
 * const watch = new FailFast(2);
 * const bad = { model: "m", status: "error", error_kind: "client", error_message: "HTTP 400: unknown model" };
 * assert.equal(watch.note(bad), false);
 * assert.equal(watch.note(bad), true);
 * const other = new FailFast(2);
 * other.note({ ...bad, status: "correct", error_kind: null, error_message: null });
 * assert.equal(other.note(bad), false);
 * ```
 */
export class FailFast {
  readonly #limit: number;
  #seen = 0;
  #message: string | null = null;
  #armed = true;

  /**
   * @param limit Rows that must all fail the same way. 0 never stops.
   */
  constructor(limit: number) {
    this.#limit = limit;
    this.#armed = limit > 0;
  }

  /**
   * Counts a finished row.
   *
   * @param row The row's status and error.
   * @returns Whether the model is to stop now (once, at the `limit`-th row).
   */
  note(row: HealthRow): boolean {
    if (!this.#armed) return false;
    const message = row.error_message ?? "";
    if (
      row.status !== "error" || !CLIENT_KINDS.has(row.error_kind ?? "") ||
      (this.#message !== null && this.#message !== message)
    ) {
      this.#armed = false;
      return false;
    }
    this.#message = message;
    this.#seen++;
    if (this.#seen < this.#limit) return false;
    this.#armed = false;
    return true;
  }

  /** The message the rows failed with (once stopped). */
  get message(): string | null {
    return this.#message;
  }
}
