/**
 * The machinery of the bad-input tables: each case spawns a CLI with its
 * `deno.json` task's permissions in a fresh folder and checks the exit
 * code, the message (it names what is wrong, no raw OS error, no stack
 * trace) and that no file was created, changed or removed.
 */
import { join } from "node:path";
import { ROOT } from "./_cli.ts";

/** One bad input. */
export interface Case {
  name: string;
  /** A `deno.json` task. */
  cli: string;
  args: string[];
  /** Files to write in the case's folder (folders end with "/"). */
  files?: Record<string, string>;
  /** Patterns the output (stderr and stdout) must match. */
  expect: RegExp[];
  /** The exit code. @default 2 (bad input) */
  code?: number;
  /**
   * Paths (relative to the case folder) that may appear, for a documented
   * quarantine; every path that was there must stay unchanged.
   */
  mayAdd?: RegExp;
  /**
   * Paths (relative to the case folder) that may change or go, for a
   * case that is meant to succeed (a resume appends rows).
   */
  mayChange?: RegExp;
  /** Environment beside `NO_COLOR`. */
  env?: Record<string, string>;
  /** Symbolic links to make in the case's folder: link path → target. */
  symlinks?: Record<string, string>;
  /**
   * More checks after the command ran (rows counted, a file's content):
   * returns what is wrong, empty when all is well.
   */
  verify?: (dir: string, output: string) => Promise<string[]>;
}

/** What a case printed and what was wrong with it. */
export interface Outcome {
  name: string;
  problems: string[];
  output: string;
}

/** `deno run <permissions> <script>` of a `deno.json` task, made absolute. */
export function taskArgs(cli: string): string[] {
  const tasks = JSON.parse(Deno.readTextFileSync(`${ROOT}/deno.json`))
    .tasks as Record<string, string>;
  const task = tasks[cli];
  if (task === undefined) throw new Error(`no deno.json task ${cli}`);
  const words = task.split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run") {
    throw new Error(`task ${cli} is not a deno run: ${task}`);
  }
  return [
    "run",
    "--config",
    `${ROOT}/deno.json`,
    ...words.slice(2).map((w) => w.endsWith(".ts") ? join(ROOT, w) : w),
  ];
}

/** Every path under `dir` with its size and content hash. */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const rel = join(prefix, entry.name);
    if (entry.isSymlink) {
      out.push(`${rel} -> ${await Deno.readLink(join(dir, rel))}`);
    } else if (entry.isDirectory) {
      out.push(`${rel}/`, ...(await tree(dir, rel)));
    } else {
      const bytes = await Deno.readFile(join(dir, rel));
      const digest = new Uint8Array(
        await crypto.subtle.digest("SHA-256", bytes),
      );
      const hex = [...digest.slice(0, 6)].map((b) =>
        b.toString(16).padStart(2, "0")
      ).join("");
      out.push(`${rel} ${bytes.length} ${hex}`);
    }
  }
  return out.sort();
}

async function setUp(dir: string, files: Record<string, string> = {}) {
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    if (path.endsWith("/")) {
      await Deno.mkdir(full, { recursive: true });
      continue;
    }
    await Deno.mkdir(join(full, ".."), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
}

/**
 * Runs one case in `<base>/<i>` and lists what is wrong with its outcome.
 * `prepare` may add files made by running other commands (a real run).
 */
export async function runCase(
  base: string,
  c: Case,
  i: number,
  prepare?: (dir: string) => Promise<void>,
): Promise<Outcome> {
  const dir = join(base, String(i));
  await Deno.mkdir(dir);
  await setUp(dir, c.files);
  for (const [link, target] of Object.entries(c.symlinks ?? {})) {
    await Deno.symlink(target, join(dir, link));
  }
  await prepare?.(dir);
  const before = await tree(dir);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...taskArgs(c.cli), ...c.args],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...c.env },
  }).output();
  const output = new TextDecoder().decode(out.stderr) +
    new TextDecoder().decode(out.stdout);
  const problems: string[] = [];
  const code = c.code ?? 2;
  if (out.code !== code) problems.push(`exit ${out.code}, expected ${code}`);
  for (const re of c.expect) {
    if (!re.test(output)) problems.push(`output does not match ${re}`);
  }
  if (code !== 0 && !/Cannot [^:\n]+: |Usage|No mutant/.test(output)) {
    problems.push('no "Cannot <action>: <why>" message');
  }
  if (/os error/i.test(output)) problems.push("a raw OS error");
  if (/^\s{4}at /m.test(output) || /Uncaught|panicked/.test(output)) {
    problems.push("a stack trace");
  }
  if (c.verify !== undefined) {
    try {
      problems.push(...await c.verify(dir, output));
    } catch (error) {
      problems.push(`its check failed: ${(error as Error).message}`);
    }
  }
  const free = (p: string) => c.mayChange?.test(p.split(" ")[0]!) ?? false;
  const after = (await tree(dir)).filter((p) =>
    !free(p) &&
    (before.includes(p) || !(c.mayAdd?.test(p.split(" ")[0]!) ?? false))
  );
  if (
    JSON.stringify(after) !== JSON.stringify(before.filter((p) => !free(p)))
  ) {
    problems.push(
      `files changed: added ${
        after.filter((p) => !before.includes(p)).join(", ") || "nothing"
      }; changed or removed ${
        before.filter((p) => !after.includes(p)).join(", ") || "nothing"
      }`,
    );
  }
  return { name: c.name, problems, output };
}

/**
 * Runs every case (`group` at a time) in folders under `base` and returns
 * the lines of the failed ones (empty when all were handled); prints the
 * count, and each output with `BAD_INPUT_SHOW=1`.
 */
export async function runTable(
  base: string,
  cases: readonly Case[],
  label: string,
  options: { group?: number; prepare?: (dir: string) => Promise<void> } = {},
): Promise<string[]> {
  const { group = 6, prepare } = options;
  const outcomes: Outcome[] = [];
  for (let i = 0; i < cases.length; i += group) {
    outcomes.push(
      ...(await Promise.all(
        cases.slice(i, i + group).map((c, j) =>
          runCase(base, c, i + j, prepare)
        ),
      )),
    );
  }
  if (Deno.env.get("BAD_INPUT_SHOW") === "1") {
    for (const o of outcomes) console.log(`## ${o.name}\n${o.output}`);
  }
  const failed = outcomes.filter((o) => o.problems.length > 0);
  console.log(
    `${cases.length} ${label}: ${
      cases.length - failed.length
    } handled, ${failed.length} not`,
  );
  return failed.map((o) =>
    `${o.name}: ${o.problems.join("; ")}\n  ${
      o.output.trim().replaceAll("\n", "\n  ")
    }`
  );
}
