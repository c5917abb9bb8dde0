import assert from "node:assert/strict";
import {
  type LineBatch,
  readLineBatches,
  type ReadLineBatchesOptions,
} from "../../lib/store/mod.ts";

/** Writes `text` to a temporary file and reads it back in batches. */
async function batchesOf(
  text: string | Uint8Array,
  options: ReadLineBatchesOptions = {},
): Promise<LineBatch[]> {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/lines.jsonl`;
    if (typeof text === "string") await Deno.writeTextFile(path, text);
    else await Deno.writeFile(path, text);
    using file = await Deno.open(path, { read: true });
    const batches: LineBatch[] = [];
    for await (const batch of readLineBatches(file, options)) {
      batches.push(batch);
    }
    return batches;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every line with its number, whatever the batching. */
function numbered(batches: LineBatch[]): [number, string][] {
  return batches.flatMap((b) =>
    b.lines.map((line, i): [number, string] => [b.first + i, line])
  );
}

Deno.test("readLineBatches() returns a torn last line alone, unterminated", async () => {
  const batches = await batchesOf('{"a":1}\n{"b":2}\n{"c"');
  assert.deepEqual(batches, [
    { lines: ['{"a":1}', '{"b":2}'], first: 1, end: 16, terminated: true },
    { lines: ['{"c"'], first: 3, end: 20, terminated: false },
  ]);
});

Deno.test("readLineBatches() keeps blank lines so line numbers stay right", async () => {
  const batches = await batchesOf("a\n\n  \nb\n");
  assert.deepEqual(numbered(batches), [[1, "a"], [2, ""], [3, "  "], [4, "b"]]);
  assert.equal(batches.at(-1)?.terminated, true);
  assert.equal(batches.at(-1)?.end, 8);
});

Deno.test("readLineBatches() keeps the \\r of CRLF line ends", async () => {
  const batches = await batchesOf("a\r\nb\r\n");
  assert.deepEqual(numbered(batches), [[1, "a\r"], [2, "b\r"]]);
});

Deno.test("readLineBatches() yields nothing for an empty file", async () => {
  assert.deepEqual(await batchesOf(""), []);
});

Deno.test("readLineBatches() carries a line longer than one chunk over several reads", async () => {
  const long = "x".repeat(25);
  const batches = await batchesOf(`ab\n${long}\ncd\nef`, { chunkSize: 8 });
  assert.deepEqual(numbered(batches), [[1, "ab"], [2, long], [3, "cd"], [
    4,
    "ef",
  ]]);
  // Byte ends are line boundaries, increasing, and the last is the size.
  const ends = batches.map((b) => b.end);
  assert.deepEqual(ends, [...ends].sort((x, y) => x - y));
  assert.equal(ends.at(-1), 3 + long.length + 1 + 3 + 2);
  assert.deepEqual(batches.map((b) => b.terminated).slice(-1), [false]);
});

Deno.test("readLineBatches() gives byte offsets, not character offsets, for multi-byte text", async () => {
  // "é" is 2 bytes, "€" 3: a chunk boundary falls inside a character.
  const text = "é€\n€€€€\nok\n";
  for (const chunkSize of [1, 2, 3, 5, 1 << 20]) {
    const batches = await batchesOf(text, { chunkSize });
    assert.deepEqual(numbered(batches).map(([, l]) => l), ["é€", "€€€€", "ok"]);
    assert.equal(batches.at(-1)?.end, new TextEncoder().encode(text).length);
    for (const b of batches) {
      const prefix = new TextEncoder().encode(text).subarray(0, b.end);
      assert.equal(prefix.at(-1), 0x0a, `end ${b.end} is after a newline`);
    }
  }
});

Deno.test("readLineBatches() reads only from `from` to `to`, numbering from `from`", async () => {
  const text = "aa\nbb\ncc\ndd\n";
  assert.deepEqual(numbered(await batchesOf(text, { from: 3, to: 9 })), [
    [1, "bb"],
    [2, "cc"],
  ]);
  // A `to` inside a line: the piece before it is an unterminated line.
  const cut = await batchesOf(text, { from: 6, to: 10 });
  assert.deepEqual(cut, [
    { lines: ["cc"], first: 1, end: 9, terminated: true },
    { lines: ["d"], first: 2, end: 10, terminated: false },
  ]);
  assert.deepEqual(await batchesOf(text, { from: 12 }), []);
  assert.deepEqual(await batchesOf(text, { from: 4, to: 4 }), []);
});

Deno.test("readLineBatches() drops a byte-order mark at the start only", async () => {
  const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
  const body = new TextEncoder().encode("a\n");
  const bytes = new Uint8Array([...bom, ...body, ...bom, ...body]);
  assert.deepEqual(numbered(await batchesOf(bytes, { chunkSize: 5 })), [
    [1, "a"],
    [2, "\ufeffa"],
  ]);
});

Deno.test("readLineBatches() rejects a backwards range and a bad chunk size", async () => {
  await assert.rejects(() => batchesOf("a\n", { from: 2, to: 1 }), RangeError);
  await assert.rejects(() => batchesOf("a\n", { from: -1 }), RangeError);
  await assert.rejects(() => batchesOf("a\n", { chunkSize: 0 }), RangeError);
});
