/**
 * Token buckets for RPM/TPM limits.
 *
 * Written by hand: the npm `limiter` package rejects a request larger than
 * its bucket (a long prompt under a small TPM), cannot be aborted while
 * waiting and cannot be corrected after the fact with reported usage; this
 * bucket allows one over-sized take when full (the debt is paid by waiting),
 * aborts on a signal and accepts corrections.
 *
 * @module
 */

/** Waits `ms`, or rejects when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A token bucket refilled continuously at `perMinute`, FIFO across waiters. */
export class TokenBucket {
  readonly perMinute: number;
  readonly capacity: number;
  #tokens: number;
  #last: number;
  #queue: Promise<void> = Promise.resolve();
  #now: () => number;

  /**
   * @param perMinute Refill rate; 0 means unlimited.
   * @param capacity Burst size; defaults to one second's worth (at least 1).
   */
  constructor(
    perMinute: number,
    capacity = Math.max(1, perMinute / 60),
    now: () => number = performance.now.bind(performance),
  ) {
    this.perMinute = perMinute;
    this.capacity = capacity;
    this.#tokens = capacity;
    this.#now = now;
    this.#last = now();
  }

  /** Whether the bucket limits anything (false when `perMinute` is 0). */
  get limited(): boolean {
    return this.perMinute > 0;
  }

  #refill(): void {
    const t = this.#now();
    this.#tokens = Math.min(
      this.capacity,
      this.#tokens + ((t - this.#last) * this.perMinute) / 60_000,
    );
    this.#last = t;
  }

  /** Takes `n` tokens, waiting until they are there (or the bucket is full). */
  take(n: number, signal?: AbortSignal): Promise<void> {
    if (this.perMinute <= 0) return Promise.resolve();
    const run = this.#queue.then(async () => {
      const need = Math.min(n, this.capacity);
      for (;;) {
        this.#refill();
        if (this.#tokens >= need) break;
        const waitMs = ((need - this.#tokens) * 60_000) / this.perMinute;
        await sleep(Math.max(1, waitMs), signal);
      }
      this.#tokens -= n;
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Gives back (positive) or takes more (negative) tokens after the fact. */
  adjust(n: number): void {
    if (this.perMinute <= 0) return;
    this.#refill();
    this.#tokens = Math.min(this.capacity, this.#tokens + n);
  }
}

/**
 * The RPM and TPM limits of one model's calls: a call takes one request
 * and its estimated tokens before it goes out, and the estimate is
 * corrected with the usage the reply reports.
 */
export class CallLimits {
  readonly #rpm: TokenBucket;
  readonly #tpm: TokenBucket;

  /**
   * @param rpm Requests per minute; 0 means unlimited.
   * @param tpm Tokens per minute; 0 means unlimited.
   */
  constructor(rpm: number, tpm: number) {
    this.#rpm = new TokenBucket(rpm);
    this.#tpm = new TokenBucket(tpm);
  }

  /**
   * Whether either limit is set. When neither is, callers skip
   * {@linkcode CallLimits.acquire}: each await costs a turn of the event
   * loop per row at thousands of rows per second.
   */
  get limited(): boolean {
    return this.#rpm.limited || this.#tpm.limited;
  }

  /** Whether tokens are counted (only then is an estimate needed). */
  get countsTokens(): boolean {
    return this.#tpm.limited;
  }

  /**
   * Waits for one request and `tokens` tokens.
   *
   * @returns false when `signal` aborted the wait (the call must not go).
   */
  async acquire(tokens: number, signal: AbortSignal): Promise<boolean> {
    try {
      await this.#rpm.take(1, signal);
      await this.#tpm.take(tokens, signal);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Corrects the tokens taken for a call (`estimate`) with those it used
   * (the reply's usage; 0 when the reply reported none, which leaves the
   * estimate standing).
   */
  settle(estimate: number, used: number): void {
    if (this.#tpm.limited && used > 0) this.#tpm.adjust(estimate - used);
  }
}
