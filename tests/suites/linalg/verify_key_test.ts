import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../../lib/suites/linalg/verify_key.ts";

Deno.test("verify-key reproduces all 660 LinAlg-Bench answers and exits 0", async () => {
  const lines: string[] = [];
  const code = await main(
    [
      "data/linalgbench/linalg_bench_3x3.csv",
      "data/linalgbench/linalg_bench_4x4.csv",
      "data/linalgbench/linalg_bench_5x5.csv",
    ],
    (l) => lines.push(l),
  );
  assert.equal(code, 0, lines.join("\n"));
  assert.equal(
    lines.filter((l) => /: 220\/220 answers agree, 0 disagree/.test(l)).length,
    3,
  );
});

Deno.test("verify-key prints every disagreement and exits 1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const csv = await Deno.readTextFile(
      "data/linalgbench/linalg_bench_4x4.csv",
    );
    const tampered = csv.replace("\\det(A) = 97", "\\det(A) = 98").replace(
      "\\text{tr}(A) = 0",
      "\\text{tr}(A) = 1",
    );
    assert.notEqual(tampered, csv);
    const path = join(dir, "bad.csv");
    await Deno.writeTextFile(path, tampered);
    const lines: string[] = [];
    assert.equal(await main([path], (l) => lines.push(l)), 1);
    const disagree = lines.filter((l) => l.startsWith("DISAGREE"));
    assert.equal(disagree.length, 2);
    assert.match(
      disagree.join("\n"),
      /C_4x4_det_001 \(determinant\): published 98, computed 97/,
    );
    assert.match(
      lines[lines.length - 1]!,
      /218\/220 answers agree, 2 disagree/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verify-key exits 2 on a missing file or no arguments", async () => {
  const lines: string[] = [];
  assert.equal(await main(["data/nope.csv"], (l) => lines.push(l)), 2);
  assert.match(lines[0]!, /Cannot load LinAlg-Bench/);
  assert.equal(await main([], () => {}), 2);
});

Deno.test("deno task verify-key runs as a subprocess with read permission only", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "verify-key", "data/linalgbench/linalg_bench_3x3.csv"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(text, /220\/220 answers agree/);
});

Deno.test("verify-key main() --help prints the usage and exits 0; an unknown flag exits 2", async () => {
  const lines: string[] = [];
  assert.equal(await main(["--help"], (l) => lines.push(l)), 0);
  assert.deepEqual(lines, [
    "Usage: deno task verify-key <csv file or folder>...",
  ]);
  const bad: string[] = [];
  assert.equal(await main(["--bogus", "k.csv"], (l) => bad.push(l)), 2);
  assert.match(
    bad.join("\n"),
    /^Cannot parse the arguments: Unknown option '--bogus'.*\nUsage: deno task verify-key/s,
  );
});
