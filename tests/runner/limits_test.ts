import assert from "node:assert/strict";
import { TokenBucket } from "../../lib/runner/_limits.ts";

Deno.test("TokenBucket.take() waits for refill on its clock, and 0 means unlimited", async () => {
  let now = 0;
  const bucket = new TokenBucket(600, 1, () => now); // 10 per second, burst 1
  await bucket.take(1);
  let done = false;
  const pending = bucket.take(1).then(() => (done = true));
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(done, false, "no token while the clock stands still");
  now = 100; // one token refilled
  await pending;
  assert.equal(done, true);
  const free = new TokenBucket(0);
  for (let i = 0; i < 1000; i++) await free.take(1_000_000);
});

Deno.test("TokenBucket.take() lets an over-sized request through when full and aborts on a signal", async () => {
  let now = 0;
  const bucket = new TokenBucket(60_000, 100, () => now);
  await bucket.take(5000); // larger than the bucket: allowed when full, leaves debt
  const controller = new AbortController();
  const waiting = bucket.take(1, controller.signal);
  controller.abort(new Error("stop"));
  await assert.rejects(waiting, /stop/);
  now = 10_000; // enough to pay the debt
  await bucket.take(1);
});

Deno.test("TokenBucket.adjust() returns unused tokens", async () => {
  const now = 0;
  const bucket = new TokenBucket(60, 10, () => now);
  await bucket.take(10);
  bucket.adjust(10);
  await bucket.take(10); // would hang without the refund: the clock does not move
});
