/**
 * `TimingPair`: two requests whose timed samples take turns on one CPU.
 *
 * Why: a ratio of two times is only as steady as the machine between the
 * two measurements. On a shared cloud VM the speed of a CPU switches
 * between levels for tenths of a second to seconds (measured on one such
 * 2-vCPU machine: a fixed loop ran at 1× or 1.8–2× its best time, in
 * phases of 0.1–2 s; the least of 16 samples of a program, taken in
 * separate processes, varied by 47 %). Two programs timed one after the
 * other each get whichever level their samples caught; timed in turns,
 * sample by sample on the same CPU, both see the same levels, and their
 * ratio is what is left. Written here: no library schedules samples of
 * two sandboxed processes against each other.
 *
 * @module
 */

/** What a paired request's lease offers the pair (see `Lease`). */
export interface PairLease {
  /** Gives back the lease's work slot while it waits without a CPU. */
  park(): void;
  /** Takes a timing CPU (or the whole pool) for the rest of the request. */
  quiet(): Promise<void>;
  /** The timing CPU the lease holds, if it holds one. */
  cpu(): number | undefined;
  /** Moves the lease's worker onto a CPU another lease holds. */
  follow(cpu: number | undefined): void;
}

/**
 * Pairs the timed samples of two requests: pass the same `TimingPair` as
 * `pair` to two `runCode` requests started together (a candidate and the
 * reference it is compared with). Once both reach their timed samples,
 * the samples alternate, one at a time, on one timing CPU; when one
 * request ends (or never gets there: a crash, a failed load, Pyodide,
 * whose worker cannot wait between samples) the other goes on alone. A
 * pair is used once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSandbox, TimingPair } from "./mod.ts";
 * const sandbox = createSandbox({ warm: 0 });
 * const pair = new TimingPair();
 * const timed = [{ call: 0, repeats: 4, sampleMs: 2 }];
 * const run = (code: string) =>
 *   sandbox.runCode({
 *     language: "javascript", code, entry: "f", calls: [[20_000]], timed, pair,
 *   });
 * const [fast, slow] = await Promise.all([
 *   run("function f(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }"),
 *   run("function f(n) { let s = 0; for (let i = 0; i < 20 * n; i++) s += i % 7; return n * (n - 1) / 2; }"),
 * ]);
 * await sandbox.close();
 * assert.equal(fast.results[0]!.ok && fast.results[0]!.value, 199990000);
 * assert.equal(slow.results[0]!.ok && slow.results[0]!.value, 199990000);
 * assert.equal(pair.turns > 0, true);
 * ```
 */
export class TimingPair {
  private joined = 0;
  private arrived: boolean[] = [false, false];
  private left: boolean[] = [false, false];
  private leader = -1;
  private leaderCpu: number | undefined;
  private token = -1;
  private owned: boolean[] = [false, false];
  private waiters: (() => void)[] = [];
  /** Samples that ran while the other request also had samples to run. */
  turns = 0;

  /** @internal Adds a request; its side (0 or 1). @throws {Error} a third */
  join(): number {
    if (this.joined >= 2) {
      throw new Error(
        "Cannot pair timings: a TimingPair pairs two requests; create a new one for each pair",
      );
    }
    return this.joined++;
  }

  /** Wakes every side waiting in {@linkcode until}. */
  private wake(): void {
    const all = this.waiters;
    this.waiters = [];
    for (const w of all) w();
  }

  /** Waits until `ok()` holds, checked at each {@linkcode wake}. */
  private async until(ok: () => boolean): Promise<void> {
    while (!ok()) await new Promise<void>((res) => this.waiters.push(res));
  }

  /** Whether the other side left, or never joined. */
  private partnerGone(side: number): boolean {
    const other = 1 - side;
    return this.left[other]! || this.joined < 2;
  }

  /**
   * @internal A side's first gate: waits (parked, holding no work slot)
   * for the other side's first gate, then the first to arrive takes the
   * timing CPU and the other follows onto it. `quiet` false: no CPU is
   * taken, the samples only alternate.
   */
  async start(side: number, lease: PairLease, quiet: boolean): Promise<void> {
    this.arrived[side] = true;
    if (this.leader < 0) this.leader = side;
    this.wake();
    if (quiet) lease.park();
    await this.until(() => this.arrived[1 - side]! || this.partnerGone(side));
    if (this.token < 0) this.token = this.leader;
    if (!quiet) return;
    if (side === this.leader || this.partnerGone(side)) {
      await lease.quiet();
      this.owned[side] = true;
      if (side === this.leader) {
        this.leaderCpu = lease.cpu();
        this.wake();
      }
      return;
    }
    // the leader holds its timing CPU once it owns it
    const ready = () => this.owned[this.leader]!;
    await this.until(() => ready() || this.partnerGone(side));
    if (ready() && !this.partnerGone(side)) {
      lease.follow(this.leaderCpu);
    } else {
      await lease.quiet();
      this.owned[side] = true;
    }
  }

  /** @internal A side finished a sample: the turn passes on. */
  done(side: number): void {
    if (this.token === side && !this.partnerGone(side)) {
      this.token = 1 - side;
      this.wake();
    }
  }

  /**
   * @internal Waits for the side's turn; a follower whose leader has gone
   * takes a timing CPU of its own first.
   */
  async turn(side: number, lease: PairLease, quiet: boolean): Promise<void> {
    await this.until(() => this.token === side || this.partnerGone(side));
    if (!this.partnerGone(side)) this.turns++;
    else if (quiet && !this.owned[side]) {
      await lease.quiet();
      this.owned[side] = true;
    }
  }

  /** @internal The side's request ended (or will not sample). */
  leave(side: number): void {
    if (this.left[side]) return;
    this.left[side] = true;
    if (this.token === side) this.token = 1 - side;
    this.wake();
  }
}

/**
 * The ratio `a / b` of two paired requests' times: the median over i of
 * `a[i] / b[i]`, sample i of each having run next to the other's (see
 * `CallResult.samplesMs`), so a change of the machine's speed between
 * samples moves a ratio's two terms alike and a change within one pair
 * moves one ratio of many. `null` with fewer than 3 pairs (a side stopped
 * early) or a time that is not positive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedRatio } from "./mod.ts";
 * // the machine ran at half speed for the middle samples
 * assert.equal(pairedRatio([1, 2, 2, 1], [4, 8, 8, 4]), 0.25);
 * assert.equal(pairedRatio([1, 1], [2, 2]), null);
 * ```
 */
export function pairedRatio(a: number[], b: number[]): number | null {
  const n = Math.min(a.length, b.length);
  if (n < 3) return null;
  const r: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!(a[i]! > 0 && b[i]! > 0)) return null;
    r.push(a[i]! / b[i]!);
  }
  r.sort((x, y) => x - y);
  return n % 2 ? r[(n - 1) / 2]! : (r[n / 2 - 1]! + r[n / 2]!) / 2;
}
