import assert from "node:assert/strict";
import { createBatch, untilDone, uploadFile, withClient } from "./_setup.ts";

const body = (n: number) => ({
  model: "sim-strong",
  messages: [{
    role: "user",
    content: `What is ${n} + ${n}? Answer with the number only.`,
  }],
  temperature: 0,
  max_tokens: 64,
  seed: 1,
});

function requestFile(count: number): string {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      custom_id: `k${i}`,
      method: "POST",
      url: "/v1/chat/completions",
      body: body(i + 10),
    }) + "\n").join("");
}

Deno.test("startSimServer() batch API: states move to completed and each line equals the online answer", () =>
  withClient({ batch: { stepMs: 40 } }, async (client) => {
    const file = await uploadFile(client, requestFile(6));
    assert.equal((await client.files.retrieve(file.id)).bytes, file.bytes);
    const created = await createBatch(client, file.id);
    assert.equal(created.status, "validating");
    const { batch, seen } = await untilDone(client, created.id);
    assert.equal(batch.status, "completed");
    // Polls under load may skip a phase, never go back.
    const order = ["validating", "in_progress", "finalizing", "completed"];
    const ranks = seen.map((state) => order.indexOf(state));
    assert.ok(
      ranks.every((r, i) => r >= 0 && (i === 0 || r > ranks[i - 1]!)),
      seen.join(),
    );
    assert.deepEqual(batch.request_counts, {
      total: 6,
      completed: 6,
      failed: 0,
    });
    const text = await (await client.files.content(batch.output_file_id!))
      .text();
    const lines = text.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 6);
    for (const [i, line] of lines.entries()) {
      const online = await client.chat.completions.create(
        body(i + 10) as never,
      );
      assert.equal(line.custom_id, `k${i}`);
      assert.equal(line.response.status_code, 200);
      assert.deepEqual(line.response.body, JSON.parse(JSON.stringify(online)));
    }
  }));

Deno.test("startSimServer() batch API: seeded line failures go to the error file, expiry leaves batch_expired lines", () =>
  withClient({
    seed: 3,
    batch: { stepMs: 30, failureRate: 0.5, expireAfterMs: 45 },
  }, async (client) => {
    const file = await uploadFile(client, requestFile(10));
    const created = await createBatch(client, file.id);
    const { batch } = await untilDone(client, created.id);
    assert.equal(batch.status, "expired");
    const read = async (id: string | undefined | null) =>
      id
        ? (await (await client.files.content(id)).text()).trim().split("\n")
          .map((l) => JSON.parse(l))
        : [];
    const output = await read(batch.output_file_id);
    const errors = await read(batch.error_file_id);
    // Half the in-progress window passed: 5 lines done, 5 expired.
    const expired = errors.filter((e) => e.error?.code === "batch_expired");
    assert.equal(expired.length, 5);
    const failed = errors.filter((e) => e.response?.status_code === 500);
    assert.equal(output.length + failed.length, 5);
    assert.ok(failed.length > 0 && output.length > 0);
    assert.deepEqual(
      [...output, ...errors].map((l) => l.custom_id).sort(),
      Array.from({ length: 10 }, (_, i) => `k${i}`).sort(),
    );
    assert.equal(batch.request_counts?.failed, 10 - output.length);
  }));

Deno.test("startSimServer() batch API: a bad input file fails the batch, a cancel ends in cancelled", () =>
  // Long enough phases that the cancel lands before the batch completes.
  withClient({ batch: { stepMs: 300 } }, async (client) => {
    const bad = await uploadFile(
      client,
      requestFile(2) + "{not json\n",
      "bad.jsonl",
    );
    const failing = await createBatch(client, bad.id);
    const { batch: failed } = await untilDone(client, failing.id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.errors?.data?.[0]?.line, 3);
    const good = await uploadFile(client, requestFile(4));
    const running = await createBatch(client, good.id);
    const cancelling = await client.batches.cancel(running.id);
    assert.equal(cancelling.status, "cancelling");
    const { batch: cancelled } = await untilDone(client, running.id);
    assert.equal(cancelled.status, "cancelled");
    const errors =
      (await (await client.files.content(cancelled.error_file_id!)).text())
        .trim().split("\n");
    assert.equal(errors.length, 4);
    assert.match(errors[0]!, /batch_cancelled/);
    await assert.rejects(createBatch(client, "file_nope"), /404/);
  }));
