/**
 * Decoding is decided on real files made by Debian's iconv: a C-Eval CSV
 * in GBK and in GB18030 (with a character outside GBK) is recognised as
 * Chinese and decoded for a suite's CSV, refused by name for JSON; Latin-1
 * text and random bytes are not mistaken for GBK; UTF-16 with a BOM is
 * read, without one refused; BOM and CRLF pass.
 */
import assert from "node:assert/strict";
import {
  decodeText,
  EncodingInputError,
  InputLog,
} from "../../lib/inputs/mod.ts";
import { mulberry32 } from "../../lib/math/rng.ts";

const CSV = Deno.readTextFileSync(
  new URL("../../data/ceval/val/civil_servant_val.csv", import.meta.url),
);

/** `text` converted by iconv to `encoding`. */
async function iconv(text: string, encoding: string): Promise<Uint8Array> {
  const child = new Deno.Command("iconv", {
    args: ["-f", "UTF-8", "-t", encoding],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, `iconv -t ${encoding}`);
  return out.stdout;
}

Deno.test("decodeText() reads a C-Eval CSV in GBK and in GB18030 for a suite's CSV, and refuses it by name for JSON", async () => {
  for (
    const [encoding, text] of [["GBK", CSV], [
      "GB18030",
      CSV + "99,𠀀字,A,B,C,D,A\n",
    ]]
  ) {
    const bytes = await iconv(text!, encoding!);
    assert.throws(() =>
      new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    );
    const decoded = decodeText(bytes, { path: "x.csv", legacyChinese: true });
    assert.equal(decoded.text, text, encoding);
    assert.equal(decoded.encoding, "gb18030");
    assert.throws(
      () => decodeText(bytes, { path: "x.jsonl" }),
      (e: unknown) =>
        e instanceof EncodingInputError &&
        /x\.jsonl: it is not UTF-8 but appears to be Chinese text in GBK\/GB18030.*iconv -f GB18030 -t UTF-8 x\.jsonl > x\.jsonl\.utf8/
          .test(e.message),
    );
  }
});

Deno.test("decodeText() does not take Latin-1 text or random bytes for GBK, and names the first bad byte", async () => {
  const latin1 = await iconv(
    "name,city\nRené,Zürich\nJosé,São Paulo\n",
    "ISO-8859-1",
  );
  assert.throws(
    () => decodeText(latin1, { path: "l.csv", legacyChinese: true }),
    /l\.csv: line 2, byte 13 is not UTF-8 \(0xe9\)/,
  );
  const rand = mulberry32(7);
  for (let trial = 0; trial < 50; trial++) {
    const bytes = Uint8Array.from(
      { length: 400 },
      () => Math.floor(rand() * 256),
    );
    assert.throws(
      () => decodeText(bytes, { path: "r.csv", legacyChinese: true }),
      EncodingInputError,
    );
  }
});

Deno.test("decodeText() reads UTF-16 with a BOM, refuses it without one, and accepts a UTF-8 BOM and CRLF", async () => {
  const text = "id,question\r\n1,数列\r\n";
  const le = await iconv(text, "UTF-16"); // iconv writes a BOM
  assert.deepEqual(decodeText(le, { path: "u.csv" }).text, text);
  const bare = await iconv(text, "UTF-16LE");
  assert.throws(
    () => decodeText(bare, { path: "u.csv", legacyChinese: true }),
    /u\.csv: it looks like UTF-16 without a byte-order mark.*iconv -f UTF-16LE/,
  );
  const bom = new TextEncoder().encode("\uFEFF" + text);
  assert.deepEqual(decodeText(bom, { path: "b.csv" }), {
    text,
    encoding: "utf-8-bom",
  });
});

Deno.test("InputLog records each file once by content, name relative to its base folder, with its encoding", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/a.csv`, await iconv(CSV, "GBK"));
    await Deno.writeTextFile(`${dir}/b.jsonl`, "{}\n");
    const log = new InputLog({ baseDir: dir });
    assert.equal(
      await log.readText(`${dir}/a.csv`, { legacyChinese: true }),
      CSV,
    );
    await log.readText(`${dir}/b.jsonl`);
    await log.readText(`${dir}/b.jsonl`);
    const [a, b] = log.records();
    assert.deepEqual([
      a?.name,
      a?.encoding,
      b?.name,
      b?.encoding,
      log.records().length,
    ], [
      "a.csv",
      "gb18030",
      "b.jsonl",
      "utf-8",
      2,
    ]);
    assert.equal(
      b?.sha256,
      "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
