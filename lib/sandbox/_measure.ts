/**
 * `measureComplexity` on a pool: one single-use worker per measurement,
 * sizes grown while the budget allows, timings fitted by `_fit.ts`, one
 * re-measurement when the decision is a close call. Every threshold comes
 * from the backend's {@linkcode ComplexityMethod} (`complexity_method.ts`).
 *
 * @module
 */
import type { Pool } from "./_pool.ts";
import type { WorkerProcess } from "./_process.ts";
import type { Backend } from "./_backend.ts";
import { checkProgram, deadStatus, limitsOf, workerLanguage } from "./_run.ts";
import { decide, fitAll, logSlope, topUndecided } from "./_fit.ts";
import { type ComplexityMethod, methodFor } from "./complexity_method.ts";
import { encodeValue } from "./_wire.ts";
import { PreparedArgs } from "./prepared.ts";
import { measureHeld, Sampler } from "./_sampling.ts";
import type {
  ComplexityPoint,
  ComplexityRequest,
  ComplexityResult,
  RunStatus,
} from "./types.ts";

interface Series {
  points: ComplexityPoint[];
  status: RunStatus;
  error?: string;
  /** Why the sizes ended early (appended to the reason). */
  note?: string;
  /** Time the series held its worker, ms. */
  elapsedMs: number;
  backend: Backend;
  /** The method the series was measured with (its backend's). */
  method: ComplexityMethod;
}

/** Measures one series of sizes in one fresh worker. */
async function series(
  pool: Pool,
  req: ComplexityRequest,
  explicit: boolean,
): Promise<Series> {
  const lang = workerLanguage(req.language);
  const method: ComplexityMethod = methodFor(await pool.backendOf(lang));
  const {
    budgetMs = method.budgetMs,
    repeats = method.repeats,
    minSampleMs = method.minSampleMs,
  } = req;
  const limits = limitsOf(req, "measure complexity", method.timeoutMs);
  const lease = await pool.acquire({
    language: lang,
    heapMb: limits.memoryMb,
    timing: true,
    refillNow: false,
    quiet: pool.options.quietTiming,
  });
  const w: WorkerProcess = lease.worker;
  const points: ComplexityPoint[] = [];
  let status: RunStatus = "ok";
  let error: string | undefined;
  let note = "";
  const started = performance.now();
  let elapsedMs = 0;
  // Each size's arguments go to the worker once; samples refer to them.
  const sent = new Set<number>();
  const kOf = new Map<number, number>();
  const sampler = new Sampler(w);
  const sample = async (n: number, reps: number) => {
    if (!sent.has(n)) {
      let argsText: string;
      try {
        const args = req.input(n);
        argsText = args instanceof PreparedArgs ? args.wire : encodeValue(args);
      } catch (e) {
        throw new TypeError(
          `Cannot measure complexity: input(${n}) did not give a sendable argument list (${
            (e as Error).message
          })`,
        );
      }
      w.sendRaw(`{"t":"args","id":${n},"args":${argsText}}`);
      sent.add(n);
    }
    const r = await measureHeld(
      sampler,
      n,
      reps,
      minSampleMs,
      kOf.get(n) ?? 1,
    );
    if (r !== null && r.ok) kOf.set(n, r.k);
    return r === null ? null : { r };
  };
  const remaining = () => limits.timeoutMs - (performance.now() - started);
  try {
    await w.start({
      code: req.code,
      entry: req.entry,
      typescript: req.language === "typescript",
    }, limits);
    const load = await w.next();
    if (load === null || load.t !== "load") {
      return {
        points,
        status: deadStatus(w),
        elapsedMs: 0,
        backend: w.backend,
        method,
      };
    }
    if (load.r.status !== "ok") {
      return {
        points,
        status: load.r.status,
        error: load.r.error,
        elapsedMs: 0,
        backend: w.backend,
        method,
      };
    }
    const queue = [...(req.sizes ?? method.sizes)];
    const extendable = method.extendSizes;
    let warmed = false;
    // The time one call is expected to take at the next size (from the
    // growth so far): a size whose samples take far longer is hopeless
    // (code that stalls above some n) and is cut off early.
    let expectMs = method.firstCallMs;
    const limitFor = (callMs: number) =>
      Math.min(
        remaining(),
        Math.max(
          method.sampleLimitMinMs,
          method.sampleLimitFactor * repeats *
              Math.max(callMs, method.sampleLimitMinSamples * minSampleMs) +
            method.sampleLimitMarginMs,
        ),
      );
    const timeOf = (ms: number[]) => Math.max(Math.min(...ms), method.minMs);
    let stepMode = false;
    let stepStart = 0;
    let gentle = 0;
    while (queue.length) {
      const n = queue.shift()!;
      if (!warmed) {
        // one untimed round so the JIT/bytecode caches are warm
        const m0 = await sample(n, 1);
        if (m0 === null || !m0.r?.ok) break;
        warmed = true;
      }
      if (remaining() <= 0) break;
      w.rearm(limitFor(expectMs));
      const m = await sample(n, repeats);
      if (m === null) {
        // enough sizes to decide on: the class stands, the reason says
        // where and why the series ended
        if (points.length < method.minSizes) status = deadStatus(w);
        else note = `; sizes stopped at n = ${n}: ${deadStatus(w)}`;
        break;
      }
      if (!m.r?.ok) {
        status = "crash";
        error = `the entry failed at n = ${n}: ${m.r?.error ?? "no result"}`;
        break;
      }
      // The minimum of the repeats: load from other processes only adds time.
      const ms = timeOf(m.r.ms as number[]);
      points.push({ n, ms });
      if (explicit) {
        if (
          repeats * ms > budgetMs * method.explicitBudget &&
          points.length >= method.minSizes
        ) break;
        expectMs = ms * method.explicitGrowth;
        continue;
      }
      // Decide whether (and how) to grow.
      const prev = points[points.length - 2];
      let ratio = prev ? ms / prev.ms : 1;
      const stepRatio = prev ? n / prev.n : 2;
      if (
        !stepMode && prev && stepRatio === 2 && ratio > method.stepRatio &&
        n <= method.stepMaxN
      ) {
        // Steeper than n^3 on a doubling: walk in small steps instead,
        // first filling the sizes between the last two (cheap, and enough
        // sizes for a fit even when the next step is over the budget).
        stepMode = true;
        stepStart = n;
        gentle = 0;
        const fill = Math.max(1, Math.round(prev.n / method.stepFillParts));
        for (let k = prev.n + fill; k < n; k += fill) {
          const m = await sample(k, repeats);
          if (m === null || !m.r?.ok) break;
          points.push({ n: k, ms: timeOf(m.r.ms as number[]) });
        }
        points.sort((a, b) => a.n - b.n);
      } else if (stepMode && prev) {
        // Back to doubling when the small steps do not look exponential.
        const local = Math.log(Math.max(ratio, method.minRatio)) /
          Math.log(stepRatio);
        gentle = local < method.stepPolynomialSlope ? gentle + 1 : 0;
        if (gentle >= method.stepGentleSteps) {
          stepMode = false;
          queue.length = 0;
          for (let k = 2 * stepStart; k <= method.stepResumeTo; k *= 2) {
            if (k > n) queue.push(k);
          }
        }
      }
      let next: number;
      if (stepMode) {
        const step = Math.max(1, Math.round(n / method.stepParts));
        next = n + step;
        queue.length = 0;
        queue.push(next);
      } else {
        next = queue[0] ?? Infinity;
      }
      const steep = extendable && !stepMode &&
        topUndecided(points, method);
      if (!Number.isFinite(next) && steep && n < method.extendTo) {
        next = 2 * n;
        queue.push(next);
      }
      if (!Number.isFinite(next)) break;
      const allowed = steep
        ? method.extendBudget
        : points.length < method.fullSeries
        ? method.fewSizesBudget
        : 1;
      const predict = () =>
        points.at(-1)!.ms * (prev
          ? Math.pow(
            Math.max(ratio, 1),
            Math.log(next / n) / Math.log(stepRatio),
          )
          : method.firstGrowth);
      let predicted = predict();
      if (
        repeats * predicted > budgetMs * allowed && prev && !stepMode &&
        n > method.resampleMinN && ratio > method.resampleRatio &&
        repeats * ms <= budgetMs * allowed
      ) {
        // A doubling past n^3 that would end the series is sampled once
        // more: a JIT deoptimising at one size gives a run of slow calls,
        // fast again at the next pass, and the series would end there.
        w.rearm(limitFor(ms));
        const again = await sample(n, repeats);
        if (again !== null && again.r?.ok) {
          const last = points.at(-1)!;
          last.ms = Math.min(last.ms, timeOf(again.r.ms as number[]));
          ratio = last.ms / prev.ms;
          predicted = predict();
        }
      }
      expectMs = predicted;
      // Fewer than `fullSeries` sizes: allow `fewSizesBudget` times the
      // budget to get them; a steep top, `extendBudget` times.
      if (repeats * predicted > budgetMs * allowed) break;
      if (points.length >= method.maxSizes) break;
    }
    // Phase 2: a pass over the chosen sizes, descending, keeping each
    // size's minimum. Load from other processes, CPU-sibling contention
    // and JIT re-optimisation come and go over seconds; spreading each
    // size's samples over the measurement makes such a period hit every
    // size alike instead of a run of sizes.
    for (
      let pass = 0;
      pass < method.passes && points.length >= method.minSizes;
      pass++
    ) {
      const order = pass % 2 === 0 ? [...points].reverse() : [...points];
      for (const p of order) {
        if (remaining() <= 0) break;
        w.rearm(limitFor(p.ms));
        const m = await sample(
          p.n,
          Math.max(1, Math.ceil(repeats / method.passRepeatsDivisor)),
        );
        if (m === null || !m.r?.ok) break;
        p.ms = Math.min(p.ms, timeOf(m.r.ms as number[]));
      }
    }
  } finally {
    elapsedMs = performance.now() - started;
    lease.release();
  }
  await w.exited;
  const out: Series = {
    points,
    status,
    elapsedMs,
    backend: w.backend,
    method,
  };
  if (error) out.error = error;
  if (note) out.note = note;
  return out;
}

/** Runs a whole measurement (with one retry on a close call). */
export async function measureWith(
  pool: Pool,
  req: ComplexityRequest,
): Promise<ComplexityResult> {
  checkProgram(req, "measure complexity");
  if (typeof req.input !== "function") {
    throw new TypeError(
      "Cannot measure complexity: input must be a function n => argument list",
    );
  }
  if (
    req.sizes !== undefined &&
    (!Array.isArray(req.sizes) || req.sizes.length < 1 ||
      !req.sizes.every((n) => Number.isInteger(n) && n > 0))
  ) {
    throw new TypeError(
      "Cannot measure complexity: sizes must be positive integers, e.g. [8, 16, 32]",
    );
  }
  const explicit = req.sizes !== undefined;
  let s = await series(pool, req, explicit);
  let elapsedMs = s.elapsedMs;
  const { method } = s;
  let fits = fitAll(s.points, method);
  let d = decide(s.points, fits, method);
  if (s.status === "ok" && d.ambiguous) {
    const again = await series(pool, req, explicit);
    elapsedMs += again.elapsedMs;
    if (again.status === "ok" && again.points.length) {
      // keep, per size, the smaller median: noise only ever adds time
      const byN = new Map(again.points.map((p) => [p.n, p.ms]));
      const merged = s.points.map((p) => ({
        n: p.n,
        ms: byN.has(p.n) ? Math.min(p.ms, byN.get(p.n)!) : p.ms,
      }));
      s = { ...s, points: merged };
      fits = fitAll(merged, method);
      d = decide(merged, fits, method);
      d.reason += " (after one re-measurement)";
    }
  }
  const result: ComplexityResult = {
    class: s.status === "ok" ? d.class : "unknown",
    exponent: logSlope(s.points),
    fit: fits,
    points: s.points,
    status: s.status,
    reason: s.status === "ok"
      ? d.reason + (s.note ?? "")
      : `not measured: ${s.status}${s.error ? ` (${s.error})` : ""}`,
    elapsedMs,
    backend: s.backend,
  };
  return result;
}
