/**
 * `safeFileName()`: names made from user strings are bounded, made of safe
 * characters, readable, and distinct for distinct strings; a name that is
 * already safe stays as it is.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { safeFileName } from "../lib/file_name.ts";

Deno.test("safeFileName() keeps a safe name as it is", () => {
  for (const name of ["gpt-4o", "sim-strong", "Qwen2.5-72B_Instruct", "a.b"]) {
    assert.equal(safeFileName(name), name);
  }
});

Deno.test("safeFileName() replaces unsafe characters and adds a hash, so distinct strings stay distinct", () => {
  const strings = [
    "openai/gpt-4o",
    "openai_gpt-4o",
    "openai:gpt-4o",
    "通义千问",
    "通义千问2",
    "../../etc/passwd",
    ".hidden",
    "-rf",
    "",
    "CON",
    "nul.txt",
    "a b",
    "a\u0000b",
  ];
  const names = strings.map((s) => safeFileName(s));
  assert.equal(new Set(names).size, strings.length);
  for (const [i, name] of names.entries()) {
    assert.match(name, /^[A-Za-z0-9_][A-Za-z0-9._-]*$/, strings[i]);
    assert.ok(!name.startsWith("."), name);
  }
  assert.equal(names[1], "openai_gpt-4o");
  assert.match(names[0]!, /^openai_gpt-4o-[0-9a-f]{8}$/);
  assert.match(names[3]!, /^____-[0-9a-f]{8}$/);
});

Deno.test("safeFileName() bounds a long name to max, keeping a readable prefix", () => {
  const long = "m".repeat(300);
  assert.equal(safeFileName(long).length, 80);
  assert.equal(safeFileName(long, { max: 40 }).length, 40);
  assert.ok(safeFileName(long).startsWith("m".repeat(60)));
  assert.notEqual(safeFileName(long), safeFileName("m".repeat(301)));
  assert.equal(safeFileName("m".repeat(80)), "m".repeat(80));
  assert.throws(() => safeFileName(long, { max: 15 }), RangeError);
});

Deno.test("safeFileName() names can be made on disk, with room for a prefix and suffix", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const s of ["x".repeat(1000), "é".repeat(200), "a/b/../c"]) {
      const name = `001-${safeFileName(s)}.jsonl`;
      await Deno.writeTextFile(join(dir, name), "");
      assert.ok((await Deno.stat(join(dir, name))).isFile);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
