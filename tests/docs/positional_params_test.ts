/**
 * No public function takes more than two positional parameters (Deno std's
 * rule, issue 44): the rest go in an options object, so a call site names
 * what each argument is. Read from `deno doc --json` of every entry of
 * `deno.json`'s `exports` map. A destructured object parameter, or one
 * named `options` or typed `…Options`, is the options object; a parameter
 * with a default (`z = 1.96`) is positional.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const { exports } = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
) as { exports: Record<string, string> };

interface Param {
  kind: string;
  name?: string;
  left?: Param;
  tsType?: { repr?: string };
}

function isOptions(p: Param): boolean {
  const q = p.kind === "assign" && p.left !== undefined ? p.left : p;
  return q.kind === "object" || /option/i.test(q.name ?? "") ||
    (q.tsType?.repr ?? "").endsWith("Options");
}

/** `name (file)` of each function with three or more plain positional parameters. */
function wide(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => wide(n, out));
  else if (typeof node === "object" && node !== null) {
    const n = node as {
      name?: string;
      declarations?: {
        def?: { params?: Param[] };
        location: { filename: string };
      }[];
    };
    for (const d of n.declarations ?? []) {
      const plain = (d.def?.params ?? []).filter((p) => !isOptions(p));
      if (plain.length > 2) {
        out.add(`${n.name} (${d.location.filename.replace(ROOT.href, "")})`);
      }
    }
    Object.values(node).forEach((v) => wide(v, out));
  }
  return out;
}

Deno.test("no exported function takes more than two positional parameters", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...new Set(Object.values(exports))],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const doc = JSON.parse(new TextDecoder().decode(stdout));
  const functions = JSON.stringify(doc).match(/"kind":"function"/g)?.length ??
    0;
  assert.ok(functions > 200, `only ${functions} functions read`);
  assert.deepEqual([...wide(doc, new Set())].sort(), []);
});
