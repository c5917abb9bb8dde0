import assert from "node:assert/strict";
import { join } from "node:path";

const root = join(import.meta.dirname!, "../..");
const cli = join(root, "lib/cli/check_notebooks.ts");

async function check(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    text: new TextDecoder().decode(out.stdout) +
      new TextDecoder().decode(out.stderr),
  };
}

Deno.test("check_notebooks type-checks the shipped notebooks' code cells", async () => {
  const r = await check();
  assert.equal(r.code, 0, r.text);
  assert.match(r.text, /00-overview\.ipynb/);
});

Deno.test("check_notebooks fails on a notebook cell with a type error", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const path = join(tmp, "bad.ipynb");
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        cells: [
          {
            cell_type: "code",
            source: [
              'import { wilsonInterval } from "' +
              join(root, "lib/report/mod.ts") + '";\n',
            ],
            metadata: {},
            outputs: [],
          },
          {
            cell_type: "code",
            source: [
              "const n: number = wilsonInterval(1, 2).p.toFixed(1);\n",
              "n",
            ],
            metadata: {},
            outputs: [],
          },
        ],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    const r = await check(path);
    assert.equal(r.code, 1);
    assert.match(r.text, /TS2322/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
